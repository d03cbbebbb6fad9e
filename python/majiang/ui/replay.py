"""``majiang replay FILE`` in the table view: a match record stepped through one key at
a time, every hand open.

:func:`hand_steps` turns a recorded hand into the table after each event (the record has
full information, so every concealed hand is known); :class:`ReplayApp` shows those
tables with the same seat panels as the game, the action log up to the step, and at the
end of a hand its result with the fan table. From 120 columns on, the log stands beside
the table; narrower, its last two lines show under it. Keys: → or Space the next step, ← the
previous one, ↓/``n`` the next hand, ↑/``p`` the previous one, Home/End the start or the
end of the hand, ``q`` leaves.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Group
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import RichLog, Static

from .._core import Action
from .._untrusted import printable
from ..errors import UsageError
from ..record import HandRecord, MatchRecord
from .log import ActionLog
from .screens import HandView, result_body
from .tiles import inline, suit_style, wind_label
from .widgets import SeatPanel

__all__ = ["ReplayApp", "ReplayScreen", "Step", "hand_steps", "seat_names"]

_SEAT_NAMES = ("You", "Right", "Across", "Left")
_PASS = Action("pass")


def seat_names(record: MatchRecord) -> list[str]:
    """The players as the game names them: You, Right, Across, Left for a record of
    ``majiang play`` (seat 0 is ``Person``); otherwise the header's names, numbered when a
    name repeats."""
    players = list(record.players)
    if players and players[0] == "Person":
        return list(_SEAT_NAMES)
    # Names come from the file: control characters are shown escaped, never sent.
    return [
        printable(p) if players.count(p) == 1 else f"{printable(p)} #{s + 1}"
        for s, p in enumerate(players)
    ]


@dataclass
class Step:
    """The table after one event of a hand."""

    concealed: list[list[int]]
    melds: list[list[tuple[str, list[int]]]]
    flowers: list[list[int]]
    pools: list[list[tuple[int, bool]]]
    last_discard: int
    turn: int
    wall: int
    ready: list[bool]
    log: list[Text] = field(default_factory=list)
    bao: tuple[int, int] | None = None


def _copy(step: Step, log: list[Text]) -> Step:
    return Step(
        concealed=[sorted(c) for c in step.concealed],
        melds=[[(k, list(t)) for k, t in m] for m in step.melds],
        flowers=[list(f) for f in step.flowers],
        pools=[list(p) for p in step.pools],
        last_discard=step.last_discard,
        turn=step.turn,
        wall=step.wall,
        ready=list(step.ready),
        log=list(log),
        bao=step.bao,
    )


def hand_steps(
    hand: HandRecord,
    n_hands: int,
    names: Sequence[str],
    wall: int,
    ascii: bool = False,
    unit: str = "fan",
    person: int | None = 0,
) -> list[Step]:
    """The table after the deal and after every later event of `hand` (draws included).
    `wall`: the tiles in the wall after the deal."""
    events = [json.loads(e) for e in hand.events_json]
    log = ActionLog(names, ascii, unit=unit, person=person)
    log.start_hand(hand.index + 1, n_hands, hand.dealer)
    cur = Step(
        concealed=[[] for _ in range(4)],
        melds=[[] for _ in range(4)],
        flowers=[[] for _ in range(4)],
        pools=[[] for _ in range(4)],
        last_discard=-1,
        turn=hand.dealer,
        wall=wall,
        ready=[False] * 4,
    )
    steps: list[Step] = []
    i = 0
    while i < len(events) and events[i]["type"] in ("dice", "deal"):
        e = events[i]
        if e["type"] == "deal":
            cur.concealed[e["seat"]].extend(e["tiles"])
        i += 1
    steps.append(_copy(cur, [line.text for line in log.lines]))
    for e in events[i:]:
        _apply(cur, e)
        log.add(e.get("seat", 0) if e.get("seat") is not None else 0, _PASS, [e], cur.wall)
        steps.append(_copy(cur, [line.text for line in log.lines]))
    return steps


def _take(tiles: list[int], t: int, n: int = 1) -> None:
    for _ in range(n):
        if t in tiles:
            tiles.remove(t)


def _apply(cur: Step, e: dict[str, Any]) -> None:
    """Updates the table for one recorded event."""
    kind = e["type"]
    seat = e.get("seat")
    t = e.get("tile")
    if kind == "draw":
        cur.concealed[seat].append(t)
        cur.wall -= 1
        cur.turn = seat
    elif kind == "flower":
        _take(cur.concealed[seat], t)
        cur.flowers[seat].append(t)
    elif kind == "discard":
        _take(cur.concealed[seat], t)
        cur.pools[seat].append((t, False))
        cur.last_discard = seat
        cur.turn = seat
        if e.get("ready"):
            cur.ready[seat] = True
    elif kind in ("chow", "pung", "kong"):
        src = e["from"]
        if cur.pools[src] and cur.pools[src][-1] == (t, False):
            cur.pools[src][-1] = (t, True)
        if kind == "chow":
            tiles = [e["low"], e["low"] + 1, e["low"] + 2]
            for x in tiles:
                if x != t:
                    _take(cur.concealed[seat], x)
        else:
            tiles = [t] * (3 if kind == "pung" else 4)
            _take(cur.concealed[seat], t, len(tiles) - 1)
        cur.melds[seat].append((kind, tiles))
        cur.last_discard = -1
        cur.turn = seat
    elif kind == "concealed_kong":
        _take(cur.concealed[seat], t, 4)
        cur.melds[seat].append(("concealed_kong", [t] * 4))
    elif kind == "added_kong":
        _take(cur.concealed[seat], t)
        for i, (k, tiles) in enumerate(cur.melds[seat]):
            if k == "pung" and tiles[0] == t:
                cur.melds[seat][i] = ("kong", [t] * 4)
                break
    elif kind == "bao":
        cur.bao = (e["indicator"], e["tile"])


class ReplayScreen(Screen[None]):
    """The table of a record at one step of one hand."""

    DEFAULT_CSS = """
    ReplayScreen { layout: vertical; }
    #rinfo { height: 1; padding: 0 1; background: $primary 30%; }
    #rmain { height: 1fr; }
    #rtable { width: 1fr; }
    #rlog { width: 44; border-left: solid $foreground 30%; padding: 0 1; }
    #rresult { height: auto; max-height: 60%; display: none; padding: 0 1;
               border-top: solid $accent; }
    #rresult.-shown { display: block; }
    #rkeys { dock: bottom; height: 1; padding: 0 1; background: $primary 30%; }
    #rlast { height: 2; padding: 0 1; color: $text-muted; display: none; }
    ReplayScreen.-narrow #rlog { display: none; }
    ReplayScreen.-narrow #rlast { display: block; }
    """

    BINDINGS = [
        Binding("right", "step(1)", "Next", show=False),
        Binding("space", "step(1)", "Next", show=False),
        Binding("left", "step(-1)", "Back", show=False),
        Binding("down", "hand(1)", "Next hand", show=False),
        Binding("n", "hand(1)", "Next hand", show=False),
        Binding("up", "hand(-1)", "Previous hand", show=False),
        Binding("p", "hand(-1)", "Previous hand", show=False),
        Binding("home", "edge(0)", "Start", show=False),
        Binding("end", "edge(1)", "End", show=False),
        Binding("q", "leave", "Quit", show=False),
    ]

    def __init__(self, record: MatchRecord, ascii: bool = False, start_hand: int = 0) -> None:
        super().__init__()
        self.record = record
        self.ascii = ascii
        self.names = seat_names(record)
        self.person = 0 if record.players and record.players[0] == "Person" else None
        self.unit = "points" if record.rules.startswith("huainan") else "fan"
        self.hand_index = start_hand
        self.step_index = 0
        self._steps: dict[int, list[Step]] = {}
        self._wall = self._wall_after_deal()

    def _wall_after_deal(self) -> int:
        """Tiles left in the wall once the hands are dealt (the wall, less 13 a seat
        and the dealer's 14th)."""
        options = self.record.options
        flowers = bool(options.get("flowers", self.record.rules == "gb"))
        return (144 if flowers else 136) - 53

    def compose(self) -> ComposeResult:
        a = self.ascii
        yield Static("", id="rinfo")
        with Horizontal(id="rmain"):
            with Vertical(id="rtable"):
                for s in (3, 2, 1, 0):
                    yield SeatPanel(s, a, id=f"rseat{s}")
                with VerticalScroll(id="rresult"):
                    yield Static("", id="rresult-body")
            yield RichLog(id="rlog", wrap=True, markup=False, auto_scroll=True, min_width=20)
        yield Static("", id="rlast")
        keys = Text()
        for key, what in (
            ("←→", "step"),
            ("↑↓ p n", "hand"),
            ("Home End", "start/end"),
            ("q", "quit"),
        ):
            keys.append(key, style="bold yellow")
            keys.append(f" {what}  ")
        yield Static(keys, id="rkeys")

    def on_mount(self) -> None:
        self.set_class(self.app.size.width < 120, "-narrow")
        self.show_step()

    def on_resize(self, event: Any) -> None:
        self.set_class(event.size.width < 120, "-narrow")

    def steps(self, index: int) -> list[Step]:
        """The steps of hand `index` (worked out once)."""
        if index not in self._steps:
            self._steps[index] = hand_steps(
                self.record.hands[index],
                self.record.n_hands,
                self.names,
                self._wall,
                self.ascii,
                self.unit,
                self.person,
            )
        return self._steps[index]

    @property
    def hand(self) -> HandRecord:
        """The hand shown."""
        return self.record.hands[self.hand_index]

    def show_step(self) -> None:
        """Draws the table at the current step."""
        hand = self.hand
        steps = self.steps(self.hand_index)
        self.step_index = max(0, min(self.step_index, len(steps) - 1))
        step = steps[self.step_index]
        a = self.ascii
        info = Text()
        info.append(f"replay {self.record.rules}  ", style="bold")
        info.append(f"hand {hand.index + 1}/{len(self.record.hands)}  ")
        info.append(f"step {self.step_index + 1}/{len(steps)}  ")
        info.append("prevalent " + wind_label(hand.prevalent_wind, a), style="cyan")
        info.append(f"  wall {step.wall}")
        if step.bao is not None:
            info.append("  wild " if a else "  宝 ")
            info.append(inline(step.bao[1], a), style=suit_style(step.bao[1]) + " reverse")
        self.query_one("#rinfo", Static).update(info)
        scores = hand.scores_before
        last = self.step_index == len(steps) - 1
        for s in range(4):
            self.query_one(f"#rseat{s}", SeatPanel).show(
                name=self.names[s],
                wind=(s - hand.dealer) % 4,
                dealer=s == hand.dealer,
                score=(hand.scores_after if last else scores)[s],
                hand_size=len(step.concealed[s]),
                melds=step.melds[s],
                flowers=step.flowers[s],
                discards=step.pools[s],
                last_discard=s == step.last_discard,
                on_turn=s == step.turn and not last,
                ready=step.ready[s],
                concealed=step.concealed[s],
            )
        log = self.query_one("#rlog", RichLog)
        log.clear()
        for line in step.log:
            log.write(line)
        self.query_one("#rlast", Static).update(Text("\n").join(step.log[-2:]))
        result = self.query_one("#rresult", VerticalScroll)
        result.set_class(last, "-shown")
        if last:
            self.query_one("#rresult-body", Static).update(self._result(step))

    def _result(self, step: Step) -> Group:
        hand = self.hand
        view = HandView(
            number=hand.index + 1,
            n_hands=self.record.n_hands,
            rules=self.record.rules,
            names=self.names,
            winds=[(s - hand.dealer) % 4 for s in range(4)],
            dealer=hand.dealer,
            prevalent_wind=hand.prevalent_wind,
            result=dict(hand.result),
            scores_before=list(hand.scores_before),
            scores_after=list(hand.scores_after),
            hands=[list(c) for c in step.concealed],
            melds=[list(m) for m in step.melds],
            flowers=[list(f) for f in step.flowers],
        )
        return result_body(view, self.ascii)

    def action_step(self, delta: int) -> None:
        """One step forward or back; past the end of a hand, the next hand begins."""
        n = len(self.steps(self.hand_index))
        target = self.step_index + delta
        if target >= n and self.hand_index + 1 < len(self.record.hands):
            self.hand_index += 1
            self.step_index = 0
        elif target < 0 and self.hand_index > 0:
            self.hand_index -= 1
            self.step_index = len(self.steps(self.hand_index)) - 1
        else:
            self.step_index = max(0, min(target, n - 1))
        self.show_step()

    def action_hand(self, delta: int) -> None:
        """The start of the next or the previous hand."""
        self.hand_index = max(0, min(self.hand_index + delta, len(self.record.hands) - 1))
        self.step_index = 0
        self.show_step()

    def action_edge(self, end: int) -> None:
        """The start (0) or the end (1) of the hand."""
        self.step_index = len(self.steps(self.hand_index)) - 1 if end else 0
        self.show_step()

    def action_leave(self) -> None:
        self.app.exit()


class ReplayApp(App[None]):
    """``majiang replay FILE``: the record in the table view."""

    TITLE = "majiang replay"

    def __init__(self, record: MatchRecord, ascii: bool = False, start_hand: int = 0) -> None:
        super().__init__()
        self.record = record
        self.ascii = ascii
        self.start_hand = start_hand

    def on_mount(self) -> None:
        self.push_screen(ReplayScreen(self.record, self.ascii, self.start_hand))

    @property
    def table(self) -> ReplayScreen:
        """The replay screen."""
        for s in self.screen_stack:
            if isinstance(s, ReplayScreen):
                return s
        raise UsageError("the replay is not shown")
