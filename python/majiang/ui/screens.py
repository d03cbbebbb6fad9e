"""The screens between and after hands: the result of a hand (the winning hand, the fan
table and every seat's settlement, or all hands after a draw), the final standings, and
the quit confirmation."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from .._core import parse_tiles
from .names import huainan_form, huainan_multiplier
from .tiles import inline, inline_tiles, meld_text, suit_style, wind_label
from .widgets import KeyButton

__all__ = [
    "HandView",
    "LogScreen",
    "QuitScreen",
    "ResultScreen",
    "StandingsScreen",
    "fan_table",
    "huainan_table",
    "match_summary",
    "sparkline",
    "settlement_table",
]

_HOW = {
    "self_drawn": "by self-draw",
    "discard": "on a discard",
    "robbed_kong": "by robbing a kong",
}


@dataclass
class HandView:
    """Everything the result screen shows about one finished hand."""

    number: int
    n_hands: int
    rules: str
    names: list[str]
    winds: list[int]
    dealer: int
    prevalent_wind: int
    result: dict[str, Any]
    scores_before: list[int]
    scores_after: list[int]
    hands: list[list[int]] = field(default_factory=list)
    melds: list[list[tuple[str, list[int]]]] = field(default_factory=list)
    flowers: list[list[int]] = field(default_factory=list)


def _meld_tiles(notation: str) -> list[int]:
    return parse_tiles(notation)


def fan_table(win: dict[str, Any], ascii: bool = False) -> Table:
    """The fans of one win: Chinese and English names (English only with `ascii`),
    points, count and total."""
    t = Table(title="Fans 番种" if not ascii else "Fans", title_style="bold", expand=False)
    if not ascii:
        t.add_column("番种", style="bold")
    t.add_column("Fan")
    t.add_column("Points", justify="right")
    t.add_column("Count", justify="right")
    t.add_column("Total", justify="right", style="bold")
    listed = 0
    for f in win["fans"]:
        total = f["points"] * f["count"]
        listed += total
        names = [f["name"]] if ascii else [f["name_zh"], f["name"]]
        t.add_row(*names, str(f["points"]), str(f["count"]), str(total))
    flowers = win["fan_total"] - listed
    if flowers > 0 and win.get("flowers", 0):
        names = ["Flower Tiles"] if ascii else ["花牌", "Flower Tiles"]
        t.add_row(*names, "1", str(flowers), str(flowers))
    t.add_section()
    t.add_row(*([] if ascii else ["合计"]), "Total", "", "", str(win["fan_total"]), style="bold")
    return t


def huainan_table(win: dict[str, Any], ascii: bool = False) -> Table:
    """A huainan win: its form and value, the multipliers applied, the total value, each
    named in Chinese and English (English only with `ascii`)."""
    t = Table(title="Huainan 淮南" if not ascii else "Huainan", title_style="bold")
    if not ascii:
        t.add_column("牌型", style="bold")
    t.add_column("Form" if ascii else "Name")
    t.add_column("×", justify="right")
    zh, en = huainan_form(str(win.get("form", "")), ascii)
    t.add_row(*([en] if ascii else [zh, en]), "")
    for key, factor in win.get("multipliers") or []:
        mzh, men = huainan_multiplier(str(key), ascii)
        t.add_row(*([men] if ascii else [mzh, men]), f"×{factor}")
    t.add_section()
    t.add_row(
        *([] if ascii else ["合计"]), "Value", str(win.get("value", win["fan_total"])), style="bold"
    )
    return t


def settlement_table(view: HandView, ascii: bool = False) -> Table:
    """Every seat's score before the hand, its payment and its score after."""
    t = Table(title="Settlement 结算" if not ascii else "Settlement", title_style="bold")
    t.add_column("Seat")
    t.add_column("Wind")
    t.add_column("Before", justify="right")
    t.add_column("Hand", justify="right", style="bold")
    penalties = view.result.get("penalties") or [0, 0, 0, 0]
    if any(penalties):
        t.add_column("of which penalty", justify="right")
    t.add_column("After", justify="right", style="bold")
    for s in range(4):
        d = view.result["deltas"][s]
        style = "green" if d > 0 else ("red" if d < 0 else "")
        row: list[str | Text] = [
            view.names[s],
            wind_label(view.winds[s], ascii),
            f"{view.scores_before[s]:+d}",
            Text(f"{d:+d}", style=style),
        ]
        if any(penalties):
            row.append(f"{penalties[s]:+d}")
        row.append(f"{view.scores_after[s]:+d}")
        t.add_row(*row)
    return t


def _hand_line(
    tiles: Sequence[int],
    melds: Sequence[tuple[str, Sequence[int]]],
    flowers: Sequence[int],
    ascii: bool,
    win_tile: int | None = None,
) -> Text:
    out = Text()
    rest = list(tiles)
    if win_tile is not None and win_tile in rest:
        rest.remove(win_tile)
    out.append_text(inline_tiles(sorted(rest), ascii))
    if win_tile is not None:
        out.append("  + ")
        out.append(inline(win_tile, ascii), style=suit_style(win_tile) + " reverse")
    for kind, m in melds:
        out.append("  ")
        out.append_text(meld_text(kind, m, ascii))
    if flowers:
        out.append("  ")
        out.append_text(inline_tiles(flowers, ascii))
    return out


def result_body(view: HandView, ascii: bool = False) -> Group:
    """The renderable of a finished hand: title, hands, fan tables, settlement."""
    parts: list[Any] = []
    res = view.result
    title = Text(f"Hand {view.number}/{view.n_hands}  ", style="bold")
    wins = res.get("wins") or []
    if not wins:
        title.append("Exhaustive draw" + ("" if ascii else " 荒牌"), style="bold yellow")
        parts.append(title)
        parts.append(Text("The wall is empty; nobody won. The hands:", style="dim"))
        for s in range(4):
            line = Text(f"{view.names[s]:<7} {wind_label(view.winds[s], ascii):<8} ")
            if view.hands:
                line.append_text(_hand_line(view.hands[s], view.melds[s], view.flowers[s], ascii))
            parts.append(line)
    else:
        for i, w in enumerate(wins):
            seat = w["seat"]
            head = Text() if i else title
            if seat == 0:
                head.append("You win ", style="bold green")
            else:
                head.append(f"{view.names[seat]} wins ", style="bold")
            head.append(_HOW.get(w["how"], w["how"]))
            if w["how"] != "self_drawn":
                head.append(f" from {view.names[w['from']]}")
            head.append(" with ")
            head.append(inline(w["tile"], ascii), style=suit_style(w["tile"]))
            unit = ("point" if w["fan_total"] == 1 else "points") if "form" in w else "fan"
            head.append(f"  —  {w['fan_total']} {unit}", style="bold")
            parts.append(head)
            melds = [(k, _meld_tiles(n)) for k, n in w["melds"]]
            flowers = view.flowers[seat] if view.flowers else []
            parts.append(_hand_line(w["hand"], melds, flowers, ascii, win_tile=w["tile"]))
            parts.append(Text(""))
            parts.append(huainan_table(w, ascii) if "form" in w else fan_table(w, ascii))
    if any(res.get("penalties") or []):
        parts.append(Text("A false win declaration was penalised.", style="bold red"))
    parts.append(Text(""))
    parts.append(settlement_table(view, ascii))
    return Group(*parts)


class QuitScreen(ModalScreen[bool]):
    """Asks whether to quit: ``y`` quits, ``n`` or Escape goes back."""

    DEFAULT_CSS = """
    QuitScreen { align: center middle; }
    QuitScreen > Vertical {
        width: 52; height: auto; border: thick $error; background: $surface; padding: 1 2;
    }
    QuitScreen Horizontal { height: auto; margin-top: 1; }
    QuitScreen KeyButton { margin-right: 2; }
    """

    BINDINGS = [
        Binding("y", "answer(True)", "Quit"),
        Binding("n", "answer(False)", "Stay"),
        Binding("escape", "answer(False)", "Stay", show=False),
        Binding("q", "answer(False)", "Stay", show=False),
    ]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text("Quit the game?", style="bold"))
            with Horizontal():
                yield KeyButton("y", "Yes, quit")
                yield KeyButton("n", "No, keep playing")

    def action_answer(self, quit: bool) -> None:
        self.dismiss(quit)

    def on_button_pressed(self, event: KeyButton.Pressed) -> None:
        event.stop()
        if isinstance(event.button, KeyButton):
            self.dismiss(event.button.key == "y")


class LogScreen(ModalScreen[None]):
    """The whole action log of the match, scrollable (arrows, Page Up/Down, the mouse);
    Escape, ``l`` or ``q`` closes it."""

    DEFAULT_CSS = """
    LogScreen { align: center middle; }
    LogScreen > VerticalScroll {
        width: 90%; height: 90%; border: thick $accent; background: $surface; padding: 0 1;
    }
    """

    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding("l", "close", "Close", show=False),
        Binding("q", "close", "Close", show=False),
    ]

    def __init__(self, lines: Sequence[Text]) -> None:
        super().__init__()
        self.lines = list(lines)

    def compose(self) -> ComposeResult:
        with VerticalScroll() as scroll:
            scroll.border_title = "Action log (Esc closes)"
            yield Static(
                Text("\n").join(self.lines) if self.lines else Text("(empty)"), id="log-text"
            )

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).scroll_end(animate=False)

    def action_close(self) -> None:
        self.dismiss(None)


class ResultScreen(Screen[None]):
    """The end of a hand. Enter (or the button) goes on. Space, which passes claims at
    the table, does not: a Space meant for the table would skip the fan table unseen, so
    it only says which key goes on."""

    DEFAULT_CSS = """
    ResultScreen VerticalScroll { padding: 1 2; }
    ResultScreen Horizontal { height: 3; padding: 0 2; dock: bottom; }
    """

    BINDINGS = [
        Binding("enter", "next", "Next"),
        Binding("space", "space", "Next", show=False),
        Binding("q", "quit_game", "Quit"),
    ]

    def __init__(self, view: HandView, ascii: bool = False, last: bool = False) -> None:
        super().__init__()
        self.view = view
        self.ascii = ascii
        self.last = last

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(result_body(self.view, self.ascii), id="result")
        with Horizontal():
            label = "Final standings" if self.last else "Next hand"
            yield KeyButton("enter", label)

    def action_next(self) -> None:
        self.dismiss(None)

    def action_space(self) -> None:
        """Space stays: it says Enter goes on."""
        what = "the final standings" if self.last else "the next hand"
        self.notify(f"Enter goes on to {what} (Space passes claims at the table).")

    def action_quit_game(self) -> None:
        self.app.push_screen(QuitScreen(), self._quit_answer)

    def _quit_answer(self, quit: bool | None) -> None:
        if quit:
            self.app.exit()

    def on_button_pressed(self, event: KeyButton.Pressed) -> None:
        event.stop()
        self.dismiss(None)


@dataclass
class HandLine:
    """One row of the standings' hand list."""

    number: int
    dealer: int
    prevalent_wind: int
    result: dict[str, Any]


def _sign_style(d: int) -> str:
    return "green" if d > 0 else ("red" if d < 0 else "")


def standings_body(
    names: Sequence[str],
    lines: Sequence[HandLine],
    final: Sequence[int],
    ascii: bool = False,
) -> Group:
    """The final standings and every hand's payments, with their sums."""
    order = sorted(range(4), key=lambda s: (-final[s], s))
    ranks = Table(title="Final standings" if ascii else "Final standings 名次", title_style="bold")
    ranks.add_column("Place", justify="right")
    ranks.add_column("Player")
    ranks.add_column("Score", justify="right", style="bold")
    place = 0
    for i, s in enumerate(order):
        if i == 0 or final[s] != final[order[i - 1]]:
            place = i + 1
        style = "bold green" if s == 0 else ""
        ranks.add_row(str(place), Text(names[s], style=style), f"{final[s]:+d}")

    hands = Table(title="Hands", title_style="bold")
    hands.add_column("#", justify="right")
    hands.add_column("Dealer")
    hands.add_column("Result")
    for s in range(4):
        hands.add_column(names[s], justify="right")
    sums = [0, 0, 0, 0]
    for h in lines:
        wins = h.result.get("wins") or []
        if wins:
            desc = ", ".join(
                f"{names[w['seat']]} {w['fan_total']} {'points' if 'form' in w else 'fan'}"
                + (" self-drawn" if w["how"] == "self_drawn" else f" from {names[w['from']]}")
                for w in wins
            )
        else:
            desc = "draw"
        deltas = h.result["deltas"]
        sums = [a + b for a, b in zip(sums, deltas, strict=True)]
        hands.add_row(
            str(h.number),
            names[h.dealer],
            desc,
            *(Text(f"{d:+d}", style=_sign_style(d)) for d in deltas),
        )
    hands.add_section()
    hands.add_row("", "", "Sum of the hands", *(f"{x:+d}" for x in sums), style="bold")
    return Group(ranks, match_summary(names, lines, ascii), hands)


_SPARKS = "▁▂▃▄▅▆▇█"


def sparkline(values: Sequence[int], low: int, high: int, ascii: bool = False) -> str:
    """`values` as one character each, scaled between `low` and `high`: ``▁`` to ``█``
    (with `ascii`, ``_.-=#``)."""
    marks = "_.-=#" if ascii else _SPARKS
    span = max(1, high - low)
    return "".join(marks[round((v - low) * (len(marks) - 1) / span)] for v in values)


def match_summary(names: Sequence[str], lines: Sequence[HandLine], ascii: bool = False) -> Table:
    """Per player over the match: wins, self-draws, deal-ins (wins by another on their
    discard or kong), the biggest hand won, and the running score after each hand as a
    sparkline (one character per hand, all players on one scale)."""
    wins = [0] * 4
    self_drawn = [0] * 4
    dealt_in = [0] * 4
    biggest: list[tuple[int, str]] = [(0, "")] * 4
    running = [[0] for _ in range(4)]
    for h in lines:
        for w in h.result.get("wins") or []:
            seat = w["seat"]
            wins[seat] += 1
            if w["how"] == "self_drawn":
                self_drawn[seat] += 1
            else:
                dealt_in[w["from"]] += 1
            unit = "points" if "form" in w else "fan"
            if w["fan_total"] > biggest[seat][0]:
                biggest[seat] = (w["fan_total"], f"{w['fan_total']} {unit} (hand {h.number})")
        for s in range(4):
            running[s].append(running[s][-1] + h.result["deltas"][s])
    low = min(min(r) for r in running)
    high = max(max(r) for r in running)
    t = Table(title="Match summary" if ascii else "Match summary 战绩", title_style="bold")
    t.add_column("Player")
    t.add_column("Wins", justify="right")
    t.add_column("Self-drawn", justify="right")
    t.add_column("Dealt in", justify="right")
    t.add_column("Biggest hand")
    t.add_column(f"Score after each hand ({low:+d} to {high:+d})")
    for s in range(4):
        t.add_row(
            Text(names[s], style="bold green" if s == 0 else ""),
            str(wins[s]),
            str(self_drawn[s]),
            str(dealt_in[s]),
            biggest[s][1] or "-",
            Text(sparkline(running[s][1:], low, high, ascii), style="cyan"),
        )
    return t


class StandingsScreen(Screen[None]):
    """The final standings after the last hand. Enter or q leaves the game; ``s`` shows
    the player's statistics across matches (when the app keeps them); ``v`` reviews the
    player's decisions (:class:`majiang.ui.review.ReviewScreen`)."""

    DEFAULT_CSS = """
    StandingsScreen VerticalScroll { padding: 1 2; }
    StandingsScreen Horizontal { height: 3; padding: 0 2; dock: bottom; }
    """

    BINDINGS = [
        Binding("enter", "leave", "Leave"),
        Binding("q", "leave", "Leave", show=False),
        Binding("y", "leave", "Leave", show=False),
        Binding("s", "stats", "Statistics"),
        Binding("question_mark", "stats", "Statistics", show=False),
        Binding("v", "review", "Review"),
    ]

    def __init__(
        self,
        names: Sequence[str],
        lines: Sequence[HandLine],
        final: Sequence[int],
        ascii: bool = False,
    ) -> None:
        super().__init__()
        self.names = list(names)
        self.lines = list(lines)
        self.final = list(final)
        self.ascii = ascii

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(
                standings_body(self.names, self.lines, self.final, self.ascii), id="standings"
            )
        with Horizontal():
            yield KeyButton("enter", "Leave the table")
            yield KeyButton("s", "Your statistics")
            yield KeyButton("v", "Review your decisions")

    def action_leave(self) -> None:
        self.app.exit()

    def action_stats(self) -> None:
        """The statistics page of the help, where the app has one."""
        show = getattr(self.app, "show_stats", None)
        if show is not None:
            show()

    def action_review(self) -> None:
        """The review of the player's decisions, where the app can make one."""
        show = getattr(self.app, "show_review", None)
        if show is not None:
            show()

    def on_button_pressed(self, event: KeyButton.Pressed) -> None:
        event.stop()
        key = event.button.key if isinstance(event.button, KeyButton) else ""
        if key == "s":
            self.action_stats()
        elif key == "v":
            self.action_review()
        else:
            self.app.exit()
