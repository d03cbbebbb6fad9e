"""The help screen of the table (``?``): the keys, the rules of the rule set being played,
its fan table (the huainan forms and multipliers there) and the player's statistics
across matches.

Everything is read from the engine: the rules from the rule-set registry
(:mod:`majiang.rules`: title, summary, winning forms and every option with its value and
its description), the fans from :func:`majiang.fan_catalog`, the statistics from the data
directory (:class:`majiang.coach.store.Store`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

import majiang as _mj

from .._core import RuleSet
from ..coach.store import StatsSummary, bar_chart
from ..rules import entry
from .names import HUAINAN_FORMS, HUAINAN_MULTIPLIERS

__all__ = [
    "FORM_NAMES",
    "HelpScreen",
    "TABLE_KEYS",
    "fan_reference",
    "keys_page",
    "rules_page",
    "stats_page",
]

TABLE_KEYS: tuple[tuple[str, str], ...] = (
    ("← →  Enter", "select a tile, discard it (a click selects, a second click discards)"),
    ("d", "discard the tile just drawn"),
    ("h k p c", "win, kong, pung, chow when the action bar offers them (1 2 3: which chow)"),
    ("Space", "pass on a claim"),
    ("r", "declare ready with the selected tile (classic 报听)"),
    ("t", "show or hide the hints; [ and ] scroll them"),
    ("l", "the whole action log of the match"),
    ("?", "this help: keys, rules, fans, your statistics"),
    ("o", "settings: level, hints, explanations, colours (kept between runs)"),
    ("q then y", "quit (every finished hand is already in the record)"),
)
"""The table's keys and what they do."""

FORM_NAMES: dict[str, str] = {
    "regular": "four sets (chows, pungs or kongs) and a pair",
    "seven_pairs": "seven pairs",
    "thirteen_orphans": "thirteen orphans (one of each terminal and honour, one paired)",
    "honors_knitted": "lesser honours and knitted tiles (全不靠)",
    "knitted_straight": "knitted straight with a set and a pair (组合龙)",
    "shisanlang": "thirteen waves (十三浪): no two tiles of a suit within two ranks",
    "jiuyao": "terminals and honours only (九幺)",
}
"""What each winning form of the registry is, in words."""

_PAGES = ("Keys", "Rules", "Fans", "Statistics")


def keys_page(ascii: bool = False) -> Group:
    """The keys of the table and the marks of the hand."""
    t = Table(title="Keys at the table", title_style="bold", show_header=False, expand=False)
    t.add_column(style="bold yellow")
    t.add_column()
    for key, what in TABLE_KEYS:
        t.add_row(key, what if not ascii else what.replace(" (classic 报听)", ""))
    marks = Text("\nIn your hand, with the hints shown: ", style="dim")
    marks.append("!", style="bold")
    marks.append(" beside a tile's rank: 10% or more chance it deals in; ", style="dim")
    marks.append("*", style="bold")
    marks.append(" the discard the hints advise (shaded too, where colours show).", style="dim")
    return Group(t, marks)


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


def rules_page(rules: RuleSet, ascii: bool = False) -> Group:
    """The rule set in play: its title and summary, how a hand is won, and every option
    with its value and what it decides (from the registry)."""
    e = entry(rules.preset or rules.name)
    base = entry(rules.name)
    opts = rules.options()
    parts: list[Any] = []
    head = Text(f"{e['title']} ({rules.preset or rules.name})", style="bold")
    parts.append(head)
    parts.append(Text(str(e["summary"])))
    parts.append(Text(""))
    win = Text("A hand wins as: ", style="bold")
    win.append("; ".join(FORM_NAMES.get(f, f) for f in base["forms"]))
    win.append(".")
    parts.append(win)
    if rules.unit == "fan":
        minimum = Text(f"A win needs at least {opts.get('min_fan', 8)} fans", style="bold")
        if opts.get("flowers") and not opts.get("flowers_count_toward_min"):
            minimum.append(", counted without flowers (each flower adds 1 fan after)")
        minimum.append(": the table says how many a complete hand counts when it falls short.")
        parts.append(minimum)
    if base["has_wilds"]:
        parts.append(
            Text(
                "Wild tiles: an indicator turned up from the wall makes every copy of one "
                "kind wild (the 宝); see the Forms page for the forms and multipliers."
                if not ascii
                else "Wild tiles: an indicator turned up from the wall makes every copy of "
                "one kind wild; see the Forms page."
            )
        )
    parts.append(Text(""))
    t = Table(title="Every rule of this table", title_style="bold", expand=True)
    t.add_column("Rule", style="bold", no_wrap=True)
    t.add_column("Here", justify="right")
    t.add_column("What it decides")
    table = RuleSet.option_table(rules.name)
    for name, value in opts.items():
        doc = str(table.get(name, {}).get("doc", ""))
        t.add_row(name, _value(value), doc)
    parts.append(t)
    parts.append(Text(f"The full text: {base['docs']} in the majiang sources.", style="dim"))
    return Group(*parts)


def fan_reference(rules: RuleSet, ascii: bool = False) -> Group:
    """The fan table (gb, classic) from the engine's catalog, grouped by points; in
    huainan the forms and the multipliers."""
    if rules.unit != "fan":
        opts = rules.options()
        t = Table(title="Forms" if ascii else "Forms 牌型", title_style="bold")
        if not ascii:
            t.add_column("牌型", style="bold")
        t.add_column("Form")
        t.add_column("Value", justify="right")
        for key, (zh, en) in HUAINAN_FORMS.items():
            value = opts.get(f"form_{key}", opts.get(f"special_{key}", ""))
            t.add_row(*([en] if ascii else [zh, en]), str(value))
        m = Table(title="Multipliers" if ascii else "Multipliers 翻倍", title_style="bold")
        if not ascii:
            m.add_column("名称", style="bold")
        m.add_column("Multiplier")
        m.add_column("×", justify="right")
        for key, (zh, en) in HUAINAN_MULTIPLIERS.items():
            factor = opts.get(f"mult_{key}", opts.get(f"mult_{key}_each", ""))
            m.add_row(*([en] if ascii else [zh, en]), f"×{factor}" if factor != "" else "")
        cap = Text(
            f"A hand's value is its form's times every multiplier, at most {opts.get('cap')}.",
            style="dim",
        )
        return Group(t, Text(""), m, cap)
    ready_fan = bool(rules.options().get("ready_fan", False))
    t = Table(
        title="Fans (points, name)" if ascii else "Fans 番种表", title_style="bold", expand=False
    )
    t.add_column("Points", justify="right", style="bold")
    if not ascii:
        t.add_column("番种")
    t.add_column("Fan")
    t.add_column("Excludes", style="dim")
    last = None
    for f in sorted(_mj.fan_catalog(), key=lambda f: (-f["points"], f["id"])):
        if f["name"] == "Declared Ready" and not ready_fan:
            continue
        if last is not None and f["points"] != last:
            t.add_section()
        last = f["points"]
        names = [f["name"]] if ascii else [f["name_zh"], f["name"]]
        t.add_row(str(f["points"]), *names, ", ".join(f["excludes"]))
    return Group(t)


def stats_page(summaries: dict[str, StatsSummary] | None, ascii: bool = False) -> Group:
    """The player's statistics across matches, per rule set: hands, win and deal-in
    rates, the mean value of a win, points per hand, and a chart of the points per hand
    of the latest matches. `summaries` None: statistics are not kept (no data
    directory)."""
    if summaries is None:
        return Group(
            Text(
                "Statistics are kept when the game has a data directory (majiang play keeps "
                "them in yours; --data-dir names another)."
            )
        )
    if not summaries:
        return Group(Text("No finished hand yet: statistics start with your first hand."))
    parts: list[Any] = []
    for name, s in summaries.items():
        unit = RuleSet(name).unit
        t = Table(title=f"{name}: {len(s.matches)} matches", title_style="bold", expand=False)
        t.add_column("Hands", justify="right")
        t.add_column("Wins", justify="right")
        t.add_column("Self-drawn", justify="right")
        t.add_column("Dealt in", justify="right")
        t.add_column(f"Average {unit}", justify="right")
        t.add_column("Points per hand", justify="right", style="bold")
        t.add_row(
            str(s.hands),
            f"{s.wins} ({100 * s.win_rate:.0f}%)",
            str(s.self_drawn),
            f"{s.deal_ins} ({100 * s.deal_in_rate:.0f}%)",
            f"{s.average_value:.1f}" if s.wins else "-",
            f"{s.points_per_hand:+.1f}",
        )
        parts.append(t)
        recent = s.matches[-40:]
        values = [m.per_hand for m in recent]
        top = max((abs(v) for v in values), default=0.0)
        chart = Text(
            f"Points per hand, the last {len(recent)} matches (oldest left, ±{top:.1f}):\n",
            style="dim",
        )
        for line in bar_chart(values, height=3, ascii=ascii):
            chart.append("  " + line + "\n", style="cyan")
        parts.append(chart)
    return Group(*parts)


class HelpScreen(ModalScreen[None]):
    """Help: the keys, the rules, the fans (forms in huainan) and the statistics, one page
    at a time (``1``-``4`` or Tab change page; Esc, ``?`` or ``q`` close)."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > Vertical {
        width: 96%; height: 94%; border: thick $accent; background: $surface;
    }
    HelpScreen #help-tabs { height: 1; padding: 0 1; background: $primary 30%; }
    HelpScreen VerticalScroll { padding: 0 1; }
    """

    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding("question_mark", "close", "Close", show=False),
        Binding("q", "close", "Close", show=False),
        Binding("tab", "page(0)", "Next page", show=False),
        *(Binding(str(i + 1), f"show({i})", p, show=False) for i, p in enumerate(_PAGES)),
    ]

    def __init__(
        self,
        rules: RuleSet,
        ascii: bool = False,
        stats: dict[str, StatsSummary] | None = None,
        page: int = 0,
    ) -> None:
        super().__init__()
        self.rules = rules
        self.ascii = ascii
        self.stats = stats
        self.page = page

    @property
    def pages(self) -> Sequence[str]:
        """The page names (Fans is Forms in huainan)."""
        return tuple("Forms" if p == "Fans" and self.rules.unit != "fan" else p for p in _PAGES)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("", id="help-tabs")
            with VerticalScroll():
                yield Static("", id="help-body")

    def on_mount(self) -> None:
        self.show_page()

    def body(self) -> Group:
        """The page shown."""
        if self.page == 0:
            return keys_page(self.ascii)
        if self.page == 1:
            return rules_page(self.rules, self.ascii)
        if self.page == 2:
            return fan_reference(self.rules, self.ascii)
        return stats_page(self.stats, self.ascii)

    def show_page(self) -> None:
        """Draws the tabs and the current page."""
        tabs = Text()
        for i, name in enumerate(self.pages):
            style = "bold reverse" if i == self.page else ""
            tabs.append(f" {i + 1} {name} ", style=style)
            tabs.append(" ")
        tabs.append("  Tab: next page, Esc: back to the table", style="dim")
        self.query_one("#help-tabs", Static).update(tabs)
        self.query_one("#help-body", Static).update(self.body())
        self.query_one(VerticalScroll).scroll_home(animate=False)

    def action_show(self, page: int) -> None:
        self.page = page
        self.show_page()

    def action_page(self, _: int) -> None:
        self.page = (self.page + 1) % len(_PAGES)
        self.show_page()

    def action_close(self) -> None:
        self.dismiss(None)
