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
- ``t`` shows or hides the hints: what the level's bot would play (``Options.hints``
  opens them from the start) and, with ``Options.explain`` (``majiang play --explain``,
  which also opens them), why; ``[`` and ``]`` scroll them when they are longer than
  their panel (up to 40% of the table's height; the mouse wheel scrolls them too); ``l``
  opens the whole action log; ``?`` the help (keys, rules, fans, statistics); ``o`` the
  settings; ``q`` asks to quit and ``y`` confirms.

A complete hand that is offered no win says why in the action bar and the log (the fans
it counts and the minimum, or huainan's 宝 rule). With a data directory
(``Options.data_dir``) every finished hand is added to the player's statistics and the
settings are saved there.

The table needs 80x24 cells; a smaller terminal shows a notice until it is enlarged. From
120 columns on, the action log stands beside the table; narrower, the latest moves show
on one line under it.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.filter import LineFilter, Monochrome
from textual.screen import Screen
from textual.widgets import RichLog, Static

import majiang as _mj

from .._core import Action, RuleSet
from ..coach.store import DataFileError, Settings, StatsSummary, Store, hand_stats, summarize
from ..errors import UsageError
from .controller import LEVELS, Controller, Move, relative_seat
from .help import HelpScreen
from .hints import DANGER_SHADE, compute_hints, hint_text, oracle_options, short_win
from .log import ActionLog
from .screens import (
    HandLine,
    HandView,
    LogScreen,
    QuitScreen,
    ResultScreen,
    StandingsScreen,
)
from .settings import SettingsScreen
from .tiles import inline, set_colours, suit_style, wind_char, wind_label
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
    """How the app plays: rules (a preset's name or a ``RuleSet``), seed, level, tile
    style, record file, bot delay, hands, the hints, the colours and the data
    directory."""

    rules: str | RuleSet = "gb"
    seed: int | None = None
    level: str = "normal"
    ascii: bool = False
    record: str | None = None
    delay: float = 0.4
    hands: int | None = None
    explain: bool = False
    """Explain the advice in the hints (the advisor's candidates and figures); the hints
    then show from the start."""
    hints: bool = False
    """Show the hints from the start."""
    colours: str = "full"
    """The colours: ``full``, ``basic`` (16 colours) or ``none`` (see
    :data:`majiang.ui.tiles.COLOUR_SCHEMES`)."""
    data_dir: str | None = None
    """Where the settings and statistics are kept (None: nowhere, as in tests)."""


class HintsBox(VerticalScroll, can_focus=False):
    """The hints panel's frame: scrolls (``[`` and ``]``, the mouse wheel) when the hints
    are longer than it, without taking the keys the table uses."""


class GameScreen(Screen[None]):
    """The table: three opponents, the person's melds and discards, the hand, the action
    bar, the hints and a line of the latest moves."""

    DEFAULT_CSS = """
    GameScreen { layout: vertical; }
    #info { height: 1; padding: 0 1; background: $primary 30%; }
    #main { height: 1fr; }
    #table { width: 1fr; }
    #history { width: 42; border-left: solid $foreground 30%; padding: 0 1;
               scrollbar-size-vertical: 1; }
    #log { height: 1; padding: 0 1; color: $text-muted; }
    #keys { dock: bottom; height: 1; padding: 0 1; background: $primary 30%; }
    #hints-box { height: auto; max-height: 40%; border-top: solid $accent; display: none;
                 scrollbar-size-vertical: 1; }
    #hints-box.-shown { display: block; }
    #hints { height: auto; padding: 0 1; }
    #you { border-top: solid $foreground 30%; }
    #too-small { display: none; width: 1fr; height: 1fr; content-align: center middle;
                 text-align: center; }
    GameScreen.-wide #log { display: none; }
    GameScreen.-narrow #history { display: none; }
    GameScreen.-too-small > * { display: none; }
    GameScreen.-too-small > #too-small { display: block; }
    """

    MIN_SIZE = (80, 24)
    """The smallest terminal the table fits in."""
    WIDE = 120
    """From this many columns on, the action log stands beside the table."""

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
        Binding("left_square_bracket", "scroll_hints(-1)", "Hints ▲", show=False),
        Binding("right_square_bracket", "scroll_hints(1)", "Hints ▼", show=False),
        Binding("l", "show_log", "Log"),
        Binding("question_mark", "help", "Help"),
        Binding("o", "settings", "Settings"),
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
        self.history = ActionLog(
            self.names(),
            options.ascii,
            unit=controller.rules.unit,
        )
        self._history_lines = 0
        self.hand_lines: list[HandLine] = []
        self._timer: Any = None
        self.last_hand: HandView | None = None
        self._hint_key: tuple | None = None

    # ---- layout ---------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        a = self.ascii
        yield Static("", id="info")
        with Horizontal(id="main"):
            with Vertical(id="table"):
                yield SeatPanel(3, a, id="seat3")
                yield SeatPanel(2, a, id="seat2")
                yield SeatPanel(1, a, id="seat1")
                yield SeatPanel(0, a, id="you")
                yield HandBar(a, id="hand")
                yield ActionBar(id="actions")
                shown = "-shown" if self.opts.explain or self.opts.hints else ""
                with HintsBox(id="hints-box", classes=shown):
                    yield Static("", id="hints", classes=shown)
            yield RichLog(id="history", wrap=True, markup=False, auto_scroll=True, min_width=20)
        yield Static("", id="log")
        yield Static("", id="keys")
        yield Static("", id="too-small")

    def on_mount(self) -> None:
        self._fit(self.app.size.width, self.app.size.height)
        self.start_hand()

    def on_resize(self, event: Any) -> None:
        self._fit(event.size.width, event.size.height)

    def _fit(self, width: int, height: int) -> None:
        """Lays the table out for a `width` x `height` terminal: the log beside the table
        when it is wide, a notice instead of the table when it is too small."""
        small = width < self.MIN_SIZE[0] or height < self.MIN_SIZE[1]
        self.set_class(small, "-too-small")
        self.set_class(width >= self.WIDE, "-wide")
        self.set_class(width < self.WIDE, "-narrow")
        if small:
            need = f"{self.MIN_SIZE[0]}x{self.MIN_SIZE[1]}"
            self.query_one("#too-small", Static).update(
                Text(
                    f"The terminal is too small for the table: {width}x{height}.\n"
                    f"Make it at least {need} (q quits).",
                    style="bold",
                )
            )
        self.query_one("#keys", Static).update(self._keys_help(width - 2), layout=False)
        self.refresh_view()

    # The key line in order, each with its priority (0 first kept): at 80 columns the
    # help, log, hints, settings and quit keys always show; the moves are also in the
    # action bar's prompt.
    _KEY_LINE = (
        ("←→ Enter", "discard", 5),
        ("d", "drawn", 6),
        ("c p k h Space", "claim", 4),
        ("t [ ]", "hints", 2),
        ("l", "log", 1),
        ("o", "settings", 3),
        ("?", "help", 0),
        ("q", "quit", 0),
    )

    @classmethod
    def _keys_help(cls, width: int = 200) -> Text:
        """The key line, as much of it as fits `width` cells: the least needed keys are
        left out first; help and quit always show."""
        items = list(cls._KEY_LINE)

        def cells(chosen: list[tuple[str, str, int]]) -> int:
            return sum(len(k) + len(w) + 3 for k, w, _ in chosen) - 2

        while cells(items) > width and any(p > 0 for _, _, p in items):
            worst = max(p for _, _, p in items)
            drop = max(i for i, (_, _, p) in enumerate(items) if p == worst)
            del items[drop]
        out = Text()
        for i, (key, what, _) in enumerate(items):
            if i:
                out.append("  ")
            out.append(key, style="bold yellow")
            out.append(f" {what}")
        return out

    # ---- flow -----------------------------------------------------------------------

    def start_hand(self) -> None:
        """Deals the next hand and lets the bots play until the person must decide."""
        r = self.c.start_hand()
        self.moves = []
        self.selected = 0
        self.mode = "wait"
        self.history.start_hand(self.c.hand_number, self.c.n_hands, r.dealer)
        self._note(Text(f"Hand {self.c.hand_number} of {self.c.n_hands} dealt.", style="bold"))
        self._flush_log()
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
        claimed = obs.claim[1] if obs.claim is not None and phase != "turn" else None
        if phase == "turn" or claimed is not None:
            why = self._why_no_win(obs, claimed)
            if why:
                # The whole reason, fans and all, where the eye goes; the action bar keeps
                # the count and the log the sentence.
                self.notify(why, title="No win", timeout=10)
        if self.mode == "turn":
            tiles, drawn = self._split_hand(obs)
            n = len(tiles) + (1 if drawn is not None else 0)
            if drawn is not None:
                self.selected = len(tiles)
            self.selected = max(0, min(self.selected, n - 1))
            why = self._why_no_win(obs)
            if why and drawn is not None:
                line = Text(
                    f"Your hand is complete with {inline(drawn, self.ascii)}, but no win: ",
                    style="yellow",
                )
                line.append(why, style="yellow")
                self.history.note(line)
                self._flush_log()
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
        result = r.result
        assert result is not None  # the hand is over
        view = HandView(
            number=c.hand_number,
            n_hands=c.n_hands,
            rules=c.rules.name,
            names=self.names(),
            winds=[c.seat_wind(s) for s in range(4)],
            dealer=r.dealer,
            prevalent_wind=r.prevalent_wind,
            result=dict(result),
            scores_before=[],
            scores_after=[],
            hands=[c.hand_of(s) for s in range(4)],
            melds=[[(m.kind, list(m.tiles)) for m in c.melds_of(s)] for s in range(4)],
            flowers=[list(r.flowers(s)) for s in range(4)],
        )
        had_error = c.record_error
        hand = c.finish_hand()
        app = self.app
        if isinstance(app, MajiangApp):
            app.note_hand(hand.result, view.number)
        if c.record_error and not had_error:
            self.notify(
                f"The record could not be written: {c.record_error}", severity="error", timeout=10
            )
        view.scores_before = list(hand.scores_before)
        view.scores_after = list(hand.scores_after)
        self.hand_lines.append(HandLine(view.number, hand.dealer, hand.prevalent_wind, hand.result))
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
        r = c.round
        self.query_one("#info", Static).update(self._header(obs), layout=False)

        log = obs.discard_log
        # The latest discard is marked while it lies in its pool (not claimed).
        last_seat = log[-1][0] if log and not log[-1][2] else -1
        pools: list[list[tuple[int, bool]]] = [[], [], [], []]
        for entry in log:
            pools[entry[0]].append((entry[1], bool(entry[2])))
        on_turn = obs.turn
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
                discards=pools[s],
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

    def _header(self, obs: Any) -> Text:
        """The top line: rules, hand, opponents, wind, wall, the 宝 in huainan, the seed.
        Parts are dropped from the right (seed, then words) to fit the screen; the
        opponents' level and bot always stay."""
        c = self.c
        a = self.ascii
        width = max(20, self.app.size.width - 2)
        bao = getattr(obs, "bao", None)

        def build(long: bool, seed: bool) -> Text:
            out = Text()
            out.append("majiang " if long else "", style="bold")
            # A preset is shown by its own name (botzone), else the rule set's.
            out.append(f"{c.rules.preset or c.rules.name} ", style="bold")
            out.append(f"hand {c.hand_number}/{c.n_hands}  ")
            out.append(f"vs {c.bot_name} ({c.level})  ", style="bold magenta")
            wind = wind_label(obs.prevalent_wind, a) if long else wind_char(obs.prevalent_wind, a)
            out.append(("prevalent " if long else "round ") + wind, style="cyan")
            out.append(f"  wall {obs.wall_remaining}  ")
            walls = c.round.seat_walls if c.round is not None else None
            if walls is not None:
                # Private walls: the hand ends when the seat to draw has none left.
                mine, nxt = walls[obs.seat], walls[(obs.seat + 1) % 4]
                out.append(f"(yours {mine}, next {nxt})  " if long else f"({mine}/{nxt})  ")
            if bao is not None:
                ind = obs.bao_indicator
                if long:
                    out.append("indicator " if a else "宝 indicator ")
                    out.append(inline(ind, a), style=suit_style(ind))
                    out.append(" → ")
                out.append("wild " if a else "宝 ")
                out.append(inline(bao, a), style=suit_style(bao) + " reverse")
                out.append("  ")
            if seed:
                out.append(f"seed {c.seed}", style="dim")
            return out

        for long, seed in ((True, True), (True, False), (False, True), (False, False)):
            text = build(long, seed)
            if text.cell_len <= width:
                return text
        return build(False, False)

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
                why = self._why_no_win(obs, tile, brief=True)
                if why:
                    prompt.append(f"  (no win: {why})", style="bold yellow")
            bar.show(prompt, self._key_choices(legal))
            return
        if self.mode == "turn":
            prompt = Text("Your turn: ", style="bold")
            _, drawn = self._split_hand(obs)
            why = self._why_no_win(obs, brief=True)
            if why:
                prompt.append(f"complete, but no win: {why}", style="bold yellow")
            elif drawn is not None:
                prompt.append("←/→ Enter, d = drawn", style="dim")
            else:
                prompt.append("after your claim, pick a discard with ←/→ Enter", style="dim")
            extra = [kc for kc in self._key_choices(legal) if kc[0] != "space"]
            bar.show(prompt, extra)
            return
        waiting = Text("")
        if self.c.round is not None and not self.c.round.is_over:
            waiting = Text(f"{self.names()[obs.turn]} to play…", style="dim")
            if obs.ready[obs.seat] and self.c.rules.options().get("ting_auto_discard", False):
                waiting.append(
                    "  You are ready (报听): each tile you draw is discarded for you unless it wins"
                    if not self.ascii
                    else "  You are ready: each tile you draw is discarded for you unless it wins",
                    style="yellow",
                )
        bar.show(waiting, [])

    def _why_no_win(self, obs: Any, tile: int | None = None, brief: bool = False) -> str:
        """Why the person's complete hand is offered no win, in words: with `tile`
        (another seat's discard or kong) or the tile just drawn. The 宝 rule of huainan,
        or the fans counted against the minimum ("7 fans, 8 needed: ..."; `brief`: without
        the fans); empty when a win is offered or the hand is not complete."""
        if tile is not None and obs.phase != "rob_kong":
            why = self._no_discard_win(obs, list(obs.legal_actions), tile)
            if why:
                return why
        short = short_win(obs, self.c.rules, tile)
        if short is None:
            return ""
        return short.brief() if brief else short.words(self.ascii)

    def _no_discard_win(self, obs: Any, legal: list[Action], tile: int) -> str:
        """Why no win is offered on the discard `tile` that would complete the person's
        hand, when the reason is a rule the person may not know: in huainan a player
        holding a 宝 wins only by self-draw, by robbing a kong or by 接宝 (never on an
        ordinary discard). Empty when a win is offered or the tile completes nothing."""
        bao = getattr(obs, "bao", None)
        if bao is None or any(x.kind == "win" for x in legal) or bao not in obs.hand:
            return ""
        hand = list(obs.hand)
        if len(hand) % 3 == 2 and obs.drawn is not None:
            hand.remove(obs.drawn)  # the person has drawn since that discard
        if len(hand) % 3 != 1:
            return ""
        melds = list(obs.melds[obs.seat])
        if _mj.shanten([*hand, tile], melds, **oracle_options(obs, self.c.rules)) != -1:
            return ""
        if self.ascii:
            return "holding a wild tile, you win only by self-draw or robbing a kong"
        return "holding a 宝, you win only by self-draw, robbing a kong or 接宝"

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
        if not panel.has_class("-shown") or self.c.round is None or self.c.round.is_over:
            self._advise(None)
            self._shade_danger(frozenset())
            if panel.has_class("-shown"):
                panel.update("")
            return
        obs = self.c.observation()
        key = (
            tuple(obs.hand),
            obs.drawn,
            tuple(obs.visible),
            obs.phase,
            tuple(a.code for a in obs.legal_actions),
        )
        if key != self._hint_key:
            self._hint_key = key
            hints = compute_hints(self.c)
            panel.update(hint_text(self.c, self.ascii, hints, explain=self.opts.explain))
            advice = hints.suggestion
            kind = getattr(advice, "kind", None)
            self._advise(advice.tile if kind in ("discard", "ready") else None)
            own_turn = bool(hints.discards)
            self._shade_danger(
                frozenset(t for t, p in enumerate(hints.deal_in) if p >= DANGER_SHADE)
                if own_turn
                else frozenset()
            )

    def _shade_danger(self, kinds: frozenset[int]) -> None:
        """Shades the tiles of the hand the hints read as likely to deal in."""
        bar = self.query_one("#hand", HandBar)
        if bar.danger != kinds:
            bar.danger = kinds
            bar.show(bar.tiles, bar.drawn, bar.selected)

    def _advise(self, tile: int | None) -> None:
        """Shades the tile the hints advise discarding in the hand (none: no shading)."""
        bar = self.query_one("#hand", HandBar)
        if bar.advised != tile:
            bar.advised = tile
            bar.show(bar.tiles, bar.drawn, bar.selected)

    def _note(self, text: Text) -> None:
        self.moves.append(text)
        del self.moves[:-8]

    def _flush_log(self) -> None:
        """Writes the log lines not yet shown into the side panel."""
        panel = self.query_one("#history", RichLog)
        lines = self.history.lines
        for line in lines[self._history_lines :]:
            panel.write(line.text)
        self._history_lines = len(lines)

    def _note_missed_win(self, move: Move) -> None:
        """Says in the log when another seat's discard would have completed the person's
        hand but no win was offered: the 宝 the person holds bars winning on it
        (huainan), or the hand counts too few fans (with the fans and the minimum)."""
        if self.c.hand_over:
            return
        obs = self.c.observation()
        for e in move.events:
            if e.get("type") == "discard" and e.get("seat") != 0:
                why = self._why_no_win(obs, e["tile"])
                if why:
                    line = Text(
                        f"{inline(e['tile'], self.ascii)} would complete your hand, but no win: ",
                        style="yellow",
                    )
                    line.append(why, style="yellow")
                    self.history.note(line)

    def _note_move(self, move: Move) -> bool:
        """Adds the move's events to the action log; True if anything worth a pause of
        the table happened (a discard, a claim, a kong, a win: not a bare draw)."""
        r = self.c.round
        wall = r.wall_remaining if r is not None else None
        before = len(self.history.lines)
        notable = self.history.add(move.seat, move.action, move.events, wall)
        self._note_missed_win(move)
        for line in self.history.lines[before:]:
            if line.notable:
                self._note(line.text)
        self._flush_log()
        return notable > 0

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
            # After a chow or pung there is no drawn tile: say so where the eye is.
            msg = "No drawn tile after a claim: pick a discard with ←/→ and Enter."
            self.query_one("#actions", ActionBar).show(
                Text(msg, style="bold yellow"), self.query_one("#actions", ActionBar).choices
            )
            self.notify(msg)
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
        self.query_one("#hints-box").set_class(panel.has_class("-shown"), "-shown")
        self._hint_key = None
        self._refresh_hints()

    def action_scroll_hints(self, pages: int) -> None:
        """Scrolls the hints a panel's height up (`pages` < 0) or down."""
        box = self.query_one("#hints-box", HintsBox)
        if pages < 0:
            box.scroll_page_up(animate=False)
        else:
            box.scroll_page_down(animate=False)

    def action_show_log(self) -> None:
        """Opens the whole action log of the match, scrollable."""
        self.app.push_screen(LogScreen([line.text for line in self.history.lines]))

    def action_help(self) -> None:
        """Opens the help: keys, rules, fans, statistics."""
        app = self.app
        stats = app.stats_summary() if isinstance(app, MajiangApp) else None
        app.push_screen(HelpScreen(self.c.rules, self.ascii, stats))

    def action_settings(self) -> None:
        """Opens the settings; what changed applies when it closes."""
        app = self.app
        if not isinstance(app, MajiangApp):
            return
        where = str(app.store.path(app.store.SETTINGS)) if app.store is not None else None
        app.push_screen(SettingsScreen(app.settings, where), self._settings_closed)

    def _settings_closed(self, settings: Settings | None) -> None:
        app = self.app
        if settings is None or not isinstance(app, MajiangApp):
            return
        before = app.settings
        app.apply_settings(settings)
        if settings.level != before.level and settings.level != self.c.level:
            self.notify(f"The opponents play at level {settings.level} from the next match.")
        self.opts.explain = settings.explain
        self.opts.hints = settings.hints
        panel = self.query_one("#hints", Static)
        if settings.hints != before.hints and settings.hints != panel.has_class("-shown"):
            self.action_toggle_hints()
        self._hint_key = None
        # Redrawn from scratch: the colours of every tile may have changed.
        for w in self.query(TileWidget):
            w._shown = None
        for panel_widget in self.query(SeatPanel):
            panel_widget._shown = None
        self.refresh_view()

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
    """``majiang play``: the person against three bots, a whole match.

    With ``Options.data_dir`` the app keeps the player's settings and statistics there
    (:class:`majiang.coach.store.Store`): each finished hand is added as it ends, and the
    settings changed on the settings screen are saved when it closes."""

    TITLE = "majiang"

    def __init__(self, options: Options | None = None, controller: Controller | None = None):
        super().__init__()
        self.options = options or Options()
        o = self.options
        set_colours(o.colours)
        self.controller = controller or Controller(o.rules, o.seed, o.level, hands=o.hands)
        self.store = Store(o.data_dir) if o.data_dir is not None else None
        self.settings = Settings(
            level=o.level if o.level in LEVELS else "normal",
            hints=o.hints,
            explain=o.explain,
            colours=o.colours,
        )
        self.match_id = f"{time.strftime('%Y%m%d-%H%M%S')}-{self.controller.seed}"
        """Names this match in the statistics."""
        self.stats_error: str | None = None
        """Why the statistics stopped being kept (a failed write), or None."""

    def on_mount(self) -> None:
        if self.options.record and self.controller.writer is None:
            self.controller.record_to(self.options.record)
        self.push_screen(GameScreen(self.controller, self.options))

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's filters, and with the colours setting ``none`` one that takes every
        colour away."""
        filters = list(super().get_line_filters())
        if self.settings.colours == "none" and not any(isinstance(f, Monochrome) for f in filters):
            filters.append(self._monochrome)
        return filters

    _monochrome = Monochrome()

    def apply_settings(self, settings: Settings) -> None:
        """Uses `settings` from now on and saves them when the game keeps a data
        directory (a failed save is said, and the game goes on)."""
        self.settings = settings
        set_colours(settings.colours)
        self.refresh(repaint=True)
        if self.store is not None:
            try:
                self.store.save_settings(settings)
            except OSError as e:
                self.notify(f"The settings could not be saved: {e.strerror or e}", severity="error")

    def note_hand(self, result: dict[str, Any], number: int) -> None:
        """Adds the person's finished hand to the statistics (when they are kept)."""
        if self.store is None or self.stats_error is not None:
            return
        c = self.controller
        try:
            self.store.add_hand(
                hand_stats(
                    result,
                    match=self.match_id,
                    rules=c.rules.preset or c.rules.name,
                    level=c.level,
                    seed=c.seed,
                    hand=number,
                )
            )
        except OSError as e:
            self.stats_error = f"{self.store.dir}: {e.strerror or e}"
            self.notify(
                f"Statistics are no longer kept: {self.stats_error}", severity="error", timeout=10
            )

    def show_review(self) -> None:
        """Reviews the person's decisions in the hands played so far (the review screen
        works in the background and says which hand it is on)."""
        from .review import ReviewScreen

        record = self.controller.record
        if not record.hands:
            self.notify("No finished hand to review yet.")
            return
        self.push_screen(ReviewScreen(record, 0, ascii=self.options.ascii))

    def show_stats(self) -> None:
        """Opens the help at the statistics page."""
        self.push_screen(
            HelpScreen(self.controller.rules, self.options.ascii, self.stats_summary(), page=3)
        )

    def stats_summary(self) -> dict[str, StatsSummary] | None:
        """The statistics across matches, per rule set (None when none are kept; a file
        that cannot be read is said and shows as none)."""
        if self.store is None:
            return None
        try:
            return summarize(self.store.stats())
        except DataFileError as e:
            self.notify(str(e), severity="error", timeout=10)
            return None

    @property
    def game(self) -> GameScreen:
        """The table screen."""
        for s in self.screen_stack:
            if isinstance(s, GameScreen):
                return s
        raise UsageError("the table is not shown")
