"""``majiang replay FILE`` in the table view: a match record stepped through one key at
a time, every hand open.

:func:`hand_steps` steps the hand's :class:`~majiang.Round` with the recorded decisions
and keeps the table the round shows after each move (the record has full information, so
every concealed hand is known); :class:`ReplayApp` shows those tables with the same seat
panels as the game, the action log up to the step, and at the end of a hand its result
with the fan table. From 120 columns on, the log stands beside the table; narrower, its
last two lines show under it. Keys: → or Space the next step, ← the previous one, ↓/``n``
the next hand, ↑/``p`` the previous one, Home/End the start or the end of the hand, ``q``
leaves.
"""

from __future__ import annotations

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

from .._core import Round, RuleSet
from .._untrusted import printable
from ..errors import ReplayMismatchError, UsageError
from ..record import HandRecord, MatchRecord, hand_round, replay_moves
from .log import ActionLog
from .screens import HandView, result_body
from .tiles import inline, suit_style, wind_label
from .widgets import SeatPanel

__all__ = ["ReplayApp", "ReplayScreen", "Step", "hand_steps", "seat_names"]

_SEAT_NAMES = ("You", "Right", "Across", "Left")


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
    """The table after one move of a hand, as its :class:`~majiang.Round` shows it."""

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


def _table(r: Round, log: ActionLog) -> Step:
    """The table of ``r`` now (every hand open: a replay has full information)."""
    # Discards and the ready flags are public: any seat's observation shows them all.
    obs = r.observation(0)
    pools: list[list[tuple[int, bool]]] = [[], [], [], []]
    for seat, tile, claimed, _ in obs.discard_log:
        pools[seat].append((tile, claimed))
    last = obs.discard_log[-1] if obs.discard_log else None
    bao = getattr(obs, "bao", None)
    indicator = getattr(obs, "bao_indicator", None)
    return Step(
        concealed=[list(r.hand(s)) for s in range(4)],
        melds=[[(m.kind, list(m.tiles)) for m in r.melds(s)] for s in range(4)],
        flowers=[list(r.flowers(s)) for s in range(4)],
        pools=pools,
        last_discard=last[0] if last is not None and not last[2] else -1,
        turn=r.turn,
        wall=r.wall_remaining,
        ready=list(obs.ready),
        log=[line.text for line in log.lines],
        bao=None if bao is None or indicator is None else (indicator, bao),
    )


def hand_steps(
    hand: HandRecord,
    rules: RuleSet,
    n_hands: int,
    names: Sequence[str],
    ascii: bool = False,
    unit: str = "fan",
    person: int | None = 0,
) -> list[Step]:
    """The table after the deal and after every recorded move of `hand` that changed it:
    the hand's :class:`~majiang.Round` (:func:`~majiang.record.hand_round`) stepped with
    the recorded decisions (:func:`~majiang.record.replay_moves`), each step the table
    that round shows, the log the moves' events. A record the engine does not reproduce
    ends its steps at the difference, the last one's log saying so."""
    r = hand_round(rules, hand)
    log = ActionLog(names, ascii, unit=unit, person=person)
    log.start_hand(hand.index + 1, n_hands, hand.dealer)
    steps = [_table(r, log)]
    try:
        for seat, action, events in replay_moves(r, hand):
            log.add(seat, action, events, r.wall_remaining)
            if events:
                steps.append(_table(r, log))
    except ReplayMismatchError as e:
        log.note(Text(f"The engine does not reproduce the record from here: {e}", style="red"))
        steps.append(_table(r, log))
    return steps


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
        self.unit = record.rule_set().unit
        self.hand_index = start_hand
        self.step_index = 0
        self._steps: dict[int, list[Step]] = {}
        self._rules = record.rule_set()

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
                self._rules,
                self.record.n_hands,
                self.names,
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
