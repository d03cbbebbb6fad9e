"""The terminal game: one person (seat 0, East in the first hand) against three bots.

:class:`MajiangApp` shows the table (:class:`GameScreen`), the result of every hand
(:class:`~majiang.ui.screens.ResultScreen`) and the final standings. The person picks one
of the round's legal actions with the keyboard or the mouse; the app never decides what
is legal.

Keys on the table:

- ←/→ select a tile, Enter discards it, ``d`` discards the drawn tile;
- when a decision other than a discard is possible, the action bar lists exactly the
  legal ones with their keys: ``h`` win, ``k`` kong, ``p`` pung, ``c`` chow (then ``1``,
  ``2``, ``3`` to choose which chow when there are several), ``r`` declare ready with
  the selected tile (classic), Space pass;
- ``t`` shows or hides the hints; ``q`` asks to quit and ``y`` confirms.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from .._core import Action
from .controller import PERSON, Controller, Move, relative_seat
from .hints import hint_text
from .screens import HandLine, HandView, QuitScreen, ResultScreen, StandingsScreen
from .tiles import inline, inline_tiles, suit_style, wind_label
from .widgets import MAX_CONCEALED, ActionBar, HandBar, SeatPanel, TileWidget

__all__ = ["GameScreen", "MajiangApp"]

_CLAIM_KEYS = ("h", "k", "p", "c", "r", "space")
_KEY_KINDS = {
    "h": ("win",),
    "k": ("kong", "concealed_kong", "added_kong"),
    "p": ("pung",),
    "c": ("chow",),
    "r": ("ready",),
    "space": ("pass",),
}
_KIND_LABEL = {
    "win": "Win",
    "kong": "Kong",
    "concealed_kong": "Concealed kong",
    "added_kong": "Add to kong",
    "pung": "Pung",
    "chow": "Chow",
    "ready": "Declare ready",
    "pass": "Pass",
}


def _describe(action: Action, ascii: bool) -> str:
    """A choice's label: ``Chow 3万4万5万``, ``Pung 5万``, ``Win``."""
    kind, t = action.kind, action.tile
    if kind == "chow" and t is not None:
        return "Chow " + "".join(inline(x, ascii) for x in (t, t + 1, t + 2))
    if kind in ("ready", "pass", "win") or t is None:
        return _KIND_LABEL[kind]
    return f"{_KIND_LABEL[kind]} {inline(t, ascii)}"


@dataclass
class Options:
    """How the app plays: rules, seed, level, tile style, record file, bot delay."""

    rules: str = "gb"
    seed: int | None = None
    level: str = "normal"
    ascii: bool = False
    record: str | None = None
    delay: float = 0.4
    hands: int | None = None


class GameScreen(Screen[None]):
    """The table: three opponents, the person's melds and discards, the hand, the action
    bar, the hints and a line of the latest moves."""

    DEFAULT_CSS = """
    GameScreen { layout: vertical; }
    #info { height: 1; padding: 0 1; background: $primary 30%; }
    #log { height: 1; padding: 0 1; color: $text-muted; }
    #keys { dock: bottom; height: 1; padding: 0 1; background: $primary 30%; }
    #hints { height: auto; max-height: 9; padding: 0 1; border-top: solid $accent; display: none; }
    #hints.-shown { display: block; }
    #opponents { height: auto; }
    #you { border-top: solid $foreground 30%; }
    """

    BINDINGS = [
        Binding("left", "move(-1)", "◀", show=False),
        Binding("right", "move(1)", "▶", show=False),
        Binding("enter", "discard_selected", "Discard"),
        Binding("d", "discard_drawn", "Discard drawn"),
        Binding("h", "choose('h')", "Win", show=False),
        Binding("k", "choose('k')", "Kong", show=False),
        Binding("p", "choose('p')", "Pung", show=False),
        Binding("c", "choose('c')", "Chow", show=False),
        Binding("r", "choose('r')", "Ready", show=False),
        Binding("space", "choose('space')", "Pass", show=False),
        Binding("escape", "back", "Back", show=False),
        *(Binding(str(i), f"pick({i})", str(i), show=False) for i in range(1, 10)),
        Binding("t", "toggle_hints", "Hints"),
        Binding("q", "quit_game", "Quit"),
    ]

    def __init__(self, controller: Controller, options: Options) -> None:
        super().__init__()
        self.c = controller
        self.opts = options
        self.ascii = options.ascii
        self.selected = 0
        self.mode = "wait"  # wait | turn | claim | choose
        self.choices: list[Action] = []
        self.moves: list[Text] = []
        self.hand_lines: list[HandLine] = []
        self._timer: Any = None
        self.last_hand: HandView | None = None
        self._hint_key: tuple | None = None

    # ---- layout ---------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        a = self.ascii
        yield Static("", id="info")
        yield SeatPanel(3, a, id="seat3")
        yield SeatPanel(2, a, id="seat2")
        yield SeatPanel(1, a, id="seat1")
        yield SeatPanel(0, a, id="you")
        yield HandBar(a, id="hand")
        yield ActionBar(id="actions")
        yield Static("", id="hints")
        yield Static("", id="log")
        yield Static(self._keys_help(), id="keys")

    def on_mount(self) -> None:
        self.start_hand()

    def _keys_help(self) -> Text:
        out = Text()
        for key, what in (("←/→", "select"), ("Enter", "discard"), ("d", "discard drawn"),
                          ("c p k h Space", "claims"), ("t", "hints"), ("q", "quit")):
            out.append(key, style="bold yellow")
            out.append(f" {what}   ")
        return out

    # ---- flow -----------------------------------------------------------------------

    def start_hand(self) -> None:
        """Deals the next hand and lets the bots play until the person must decide."""
        self.c.start_hand()
        self.moves = []
        self.selected = 0
        self.mode = "wait"
        self._note(Text(f"Hand {self.c.hand_number} of {self.c.n_hands} dealt.", style="bold"))
        self.advance()

    def advance(self) -> None:
        """Runs the bots (one visible move per `delay`) until the person must decide or
        the hand is over."""
        self._timer = None
        c = self.c
        if self.app.screen is not self:
            # A dialog (quit?) is open: the bots wait until it closes.
            self._timer = self.set_timer(max(self.opts.delay, 0.1), self.advance)
            return
        while True:
            if c.hand_over:
                self.refresh_view()
                self.end_hand()
                return
            if c.person_to_act():
                self.enter_decision()
                return
            move = c.step_bots()
            if move is None:
                continue
            shown = self._note_move(move)
            if shown and self.opts.delay > 0:
                self.mode = "wait"
                self.refresh_view()
                self._timer = self.set_timer(self.opts.delay, self.advance)
                return

    def enter_decision(self) -> None:
        """Shows what the person may do now."""
        obs = self.c.observation()
        phase = obs.phase
        self.mode = "turn" if phase == "turn" else "claim"
        self.choices = []
        if self.mode == "turn":
            tiles, drawn = self._split_hand(obs)
            n = len(tiles) + (1 if drawn is not None else 0)
            if drawn is not None:
                self.selected = len(tiles)
            self.selected = max(0, min(self.selected, n - 1))
        self.refresh_view()

    def act(self, action: Action) -> None:
        """Applies the person's choice and goes on."""
        move = self.c.act(action)
        self.mode = "wait"
        self.choices = []
        self._note_move(move)
        self.advance()

    def end_hand(self) -> None:
        """Records the hand and shows its result."""
        c = self.c
        r = c.round
        assert r is not None
        view = HandView(
            number=c.hand_number,
            n_hands=c.n_hands,
            rules=c.rules.name,
            names=self.names(),
            winds=[c.seat_wind(s) for s in range(4)],
            dealer=r.dealer,
            prevalent_wind=r.prevalent_wind,
            result=dict(r.result),
            scores_before=[],
            scores_after=[],
            hands=[c.hand_of(s) for s in range(4)],
            melds=[[(m.kind, list(m.tiles)) for m in c.melds_of(s)] for s in range(4)],
            flowers=[list(r.flowers(s)) for s in range(4)],
        )
        hand = c.finish_hand()
        view.scores_before = list(hand.scores_before)
        view.scores_after = list(hand.scores_after)
        self.hand_lines.append(HandLine(view.number, hand.dealer, hand.prevalent_wind, hand.result))
        if self.opts.record:
            c.save_record(self.opts.record)
        self.last_hand = view
        self.app.push_screen(ResultScreen(view, self.ascii, last=c.match_over), self._after_result)

    def _after_result(self, _: None) -> None:
        if self.c.match_over:
            self.app.push_screen(
                StandingsScreen(self.names(), self.hand_lines, self.c.scores, self.ascii)
            )
        else:
            self.start_hand()

    # ---- what the person sees -------------------------------------------------------

    def names(self) -> list[str]:
        """Seat names: ``You``, then the bots by where they sit."""
        return ["You"] + [f"{relative_seat(s)}" for s in (1, 2, 3)]

    def _split_hand(self, obs: Any) -> tuple[list[int], int | None]:
        tiles = list(obs.hand)
        drawn = obs.drawn
        if drawn is not None and drawn in tiles:
            tiles.remove(drawn)
        else:
            drawn = None
        return tiles, drawn

    def refresh_view(self) -> None:
        """Redraws the table from the person's observation."""
        c = self.c
        if c.round is None:
            return
        obs = c.observation()
        a = self.ascii
        r = c.round
        info = Text()
        info.append("majiang ", style="bold")
        info.append(f"{c.rules.name}  hand {c.hand_number}/{c.n_hands}  ")
        info.append("prevalent " + wind_label(obs.prevalent_wind, a), style="cyan")
        info.append(f"  wall {obs.wall_remaining}  ")
        bao = getattr(obs, "bao", None)
        if bao is not None:
            ind = obs.bao_indicator
            info.append("indicator " if a else "宝 indicator ")
            info.append(inline(ind, a), style=suit_style(ind))
            info.append(" → wild " if a else " → 宝 ")
            info.append(inline(bao, a), style=suit_style(bao) + " reverse")
            info.append("  ")
        info.append(f"seed {c.seed}  {c.level}: {c.bot_name}", style="dim")
        self.query_one("#info", Static).update(info, layout=False)

        log = obs.discard_log
        # The latest discard is marked while it lies in its pool (not claimed).
        last_seat = log[-1][0] if log and not log[-1][2] else -1
        on_turn = obs.turn
        discards = obs.discards
        melds = obs.melds
        hidden = obs.hidden_kongs
        flowers = obs.flowers
        for s, wid in ((3, "#seat3"), (2, "#seat2"), (1, "#seat1"), (0, "#you")):
            ms = [(m.kind, list(m.tiles)) for m in melds[s]]
            ms += [("concealed_kong", [-1, -1, -1, -1])] * hidden[s]
            self.query_one(wid, SeatPanel).show(
                name=self.names()[s] if s else "You",
                wind=(s - obs.dealer) % 4,
                dealer=s == obs.dealer,
                score=obs.scores[s],
                hand_size=obs.hand_sizes[s],
                melds=ms,
                flowers=flowers[s],
                discards=discards[s],
                last_discard=s == last_seat,
                on_turn=s == on_turn and not r.is_over,
                ready=obs.ready[s],
            )
        tiles, drawn = self._split_hand(obs)
        sel = self.selected if self.mode in ("turn", "choose") and obs.phase == "turn" else None
        hand_bar = self.query_one("#hand", HandBar)
        hand_bar.wild = getattr(obs, "bao", None)
        hand_bar.show(tiles, drawn, sel)
        self._refresh_actions(obs)
        self._refresh_hints()
        self.query_one("#log", Static).update(Text("  ·  ").join(self.moves[-3:]), layout=False)

    def _refresh_actions(self, obs: Any) -> None:
        bar = self.query_one("#actions", ActionBar)
        a = self.ascii
        legal = self.c.legal_actions() if self.mode != "wait" else []
        if self.mode == "choose":
            bar.show(
                Text("Which one?", style="bold"),
                [(str(i + 1), _describe(x, a)) for i, x in enumerate(self.choices)]
                + [("escape", "Back")],
            )
            return
        if self.mode == "claim":
            claim = obs.claim
            prompt = Text()
            if claim is not None:
                seat, tile = claim
                what = "declares a kong with" if obs.phase == "rob_kong" else "discards"
                prompt.append(f"{self.names()[seat]} {what} ")
                prompt.append(inline(tile, a), style=suit_style(tile) + " reverse")
            bar.show(prompt, self._key_choices(legal))
            return
        if self.mode == "turn":
            prompt = Text("Your turn: ", style="bold")
            prompt.append("←/→ Enter, d = drawn", style="dim")
            extra = [kc for kc in self._key_choices(legal) if kc[0] != "space"]
            bar.show(prompt, extra)
            return
        waiting = Text("")
        if self.c.round is not None and not self.c.round.is_over:
            waiting = Text(f"{self.names()[obs.turn]} to play…", style="dim")
        bar.show(waiting, [])

    def _key_choices(self, legal: list[Action]) -> list[tuple[str, str]]:
        a = self.ascii
        out = []
        for key in _CLAIM_KEYS:
            acts = [x for x in legal if x.kind in _KEY_KINDS[key]]
            if not acts:
                continue
            if key == "r":
                out.append((key, "Ready (discard selected)"))
            elif len(acts) == 1:
                out.append((key, _describe(acts[0], a)))
            else:
                out.append((key, f"{_KIND_LABEL[acts[0].kind]} ({len(acts)} ways)…"))
        return out

    def _refresh_hints(self) -> None:
        panel = self.query_one("#hints", Static)
        if not panel.has_class("-shown"):
            return
        if self.c.round is None or self.c.round.is_over:
            panel.update("")
            return
        obs = self.c.observation()
        key = (tuple(obs.hand), obs.drawn, tuple(obs.visible), obs.phase,
               tuple(a.code for a in obs.legal_actions))
        if key != self._hint_key:
            self._hint_key = key
            panel.update(hint_text(self.c, self.ascii))

    def _note(self, text: Text) -> None:
        self.moves.append(text)
        del self.moves[:-8]

    def _note_move(self, move: Move) -> bool:
        """Adds the move's visible events to the log; True if anything was shown."""
        shown = False
        names = self.names()
        for e in move.events:
            kind = e["type"]
            seat = e.get("seat")
            who = names[seat] if seat is not None else ""
            verb_s = "" if seat == PERSON else "s"
            t = e.get("tile")
            text = Text()
            if kind == "discard":
                text.append(f"{who} discard{verb_s} ")
                text.append(inline(t, self.ascii), style=suit_style(t))
                if e.get("ready"):
                    text.append(" and declare" + verb_s + " ready", style="bold red")
            elif kind in ("chow", "pung", "kong"):
                text.append(f"{who} {kind}{verb_s} ", style="bold")
                tiles = [e["low"], e["low"] + 1, e["low"] + 2] if kind == "chow" else [t]
                text.append_text(inline_tiles(tiles, self.ascii, sep=""))
            elif kind == "concealed_kong":
                text.append(f"{who} declare{verb_s} a concealed kong", style="bold")
            elif kind == "added_kong":
                text.append(f"{who} add{verb_s} ", style="bold")
                text.append(inline(t, self.ascii), style=suit_style(t))
                text.append(" to a kong")
            elif kind == "win":
                text.append(f"{who} win{verb_s}!", style="bold green")
            elif kind == "exhaustive_draw":
                text.append("The wall is empty.", style="bold")
            elif kind == "penalty":
                text.append(f"{who} declared a false win: penalty", style="bold red")
            else:
                continue
            self._note(text)
            shown = True
        return shown

    # ---- actions --------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Shows in the footer only the keys that do something now."""
        if action in ("discard_selected", "discard_drawn", "move"):
            return self.mode == "turn"
        if action == "choose" and parameters:
            return self.mode in ("turn", "claim") and any(
                x.kind in _KEY_KINDS[str(parameters[0])] for x in self.c.legal_actions()
            )
        if action in ("pick", "back"):
            return self.mode == "choose"
        return True

    def action_move(self, step: int) -> None:
        if self.mode != "turn":
            return
        obs = self.c.observation()
        tiles, drawn = self._split_hand(obs)
        n = len(tiles) + (1 if drawn is not None else 0)
        self.selected = (self.selected + step) % n
        self.query_one("#hand", HandBar).show(tiles, drawn, self.selected)
        self._refresh_hints()

    def _legal(self, kind: str, tile: int | None) -> Action | None:
        for x in self.c.legal_actions():
            if x.kind == kind and x.tile == tile:
                return x
        return None

    def _discard_slot(self, slot: int, kind: str = "discard") -> None:
        obs = self.c.observation()
        tiles, drawn = self._split_hand(obs)
        if slot < len(tiles):
            tile = tiles[slot]
        elif drawn is not None and slot == len(tiles):
            tile = drawn
        else:
            return
        action = self._legal(kind, tile)
        if action is None:
            self.notify(f"You cannot {kind} {inline(tile, self.ascii)} now.", severity="warning")
            return
        # After a discard of a tile left of the drawn one, keep the cursor nearby.
        self.selected = min(slot, len(tiles) - 1)
        self.act(action)

    def action_discard_selected(self) -> None:
        if self.mode == "turn":
            self._discard_slot(self.selected)

    def action_discard_drawn(self) -> None:
        if self.mode != "turn":
            return
        obs = self.c.observation()
        tiles, drawn = self._split_hand(obs)
        if drawn is None:
            self.notify("You drew no tile this turn: pick one with ←/→ and Enter.")
            return
        self._discard_slot(len(tiles))

    def action_choose(self, key: str) -> None:
        if self.mode not in ("turn", "claim"):
            return
        if key == "r":
            if self.mode == "turn":
                self._discard_slot(self.selected, "ready")
            return
        acts = [x for x in self.c.legal_actions() if x.kind in _KEY_KINDS[key]]
        if not acts:
            return
        if len(acts) == 1:
            self.act(acts[0])
            return
        self.choices = acts
        self._return_mode = self.mode
        self.mode = "choose"
        self.refresh_view()

    def action_pick(self, n: int) -> None:
        if self.mode == "choose" and 1 <= n <= len(self.choices):
            self.act(self.choices[n - 1])

    def action_back(self) -> None:
        if self.mode == "choose":
            self.mode = self._return_mode
            self.choices = []
            self.refresh_view()

    def action_toggle_hints(self) -> None:
        panel = self.query_one("#hints", Static)
        panel.toggle_class("-shown")
        self._hint_key = None
        self._refresh_hints()

    def action_quit_game(self) -> None:
        self.app.push_screen(QuitScreen(), self._quit_answer)

    def _quit_answer(self, quit: bool | None) -> None:
        if quit:
            if self._timer is not None:
                self._timer.stop()
            self.app.exit()

    def on_tile_widget_clicked(self, event: TileWidget.Clicked) -> None:
        """A click selects a tile; a click on the selected tile discards it."""
        if self.mode != "turn":
            return
        obs = self.c.observation()
        tiles, drawn = self._split_hand(obs)
        slot = len(tiles) if event.slot == MAX_CONCEALED else event.slot
        if slot == self.selected:
            self._discard_slot(slot)
        else:
            self.selected = slot
            self.query_one("#hand", HandBar).show(tiles, drawn, self.selected)
            self._refresh_hints()

    def on_action_bar_chosen(self, event: ActionBar.Chosen) -> None:
        key = event.key
        if key == "escape":
            self.action_back()
        elif key.isdigit():
            self.action_pick(int(key))
        else:
            self.action_choose(key)


class MajiangApp(App[None]):
    """``majiang play``: the person against three bots, a whole match."""

    TITLE = "majiang"

    def __init__(self, options: Options | None = None, controller: Controller | None = None):
        super().__init__()
        self.options = options or Options()
        o = self.options
        self.controller = controller or Controller(o.rules, o.seed, o.level, hands=o.hands)

    def on_mount(self) -> None:
        self.push_screen(GameScreen(self.controller, self.options))

    @property
    def game(self) -> GameScreen:
        """The table screen."""
        for s in self.screen_stack:
            if isinstance(s, GameScreen):
                return s
        raise LookupError("the table is not shown")
