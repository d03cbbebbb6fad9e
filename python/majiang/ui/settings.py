"""The settings screen of the table (``o``): the opponents' level, whether the hints open
at the start, whether they explain the advice, and the colours. Saved in the data
directory (:class:`majiang.coach.store.Store`) when the game has one, so the next
``majiang play`` starts with them.

↑/↓ choose a setting, ←/→ (or Space, Enter) change it, Esc or ``o`` closes. The hints,
the explanations and the colours change at once; the level is the opponents' of the next
match (the bots of a match are dealt in with it).
"""

from __future__ import annotations

from dataclasses import replace

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from ..coach.store import COLOURS, Settings

__all__ = ["CHOICES", "SettingsScreen"]

CHOICES: dict[str, tuple[object, ...]] = {
    "level": ("easy", "normal", "hard"),
    "hints": (False, True),
    "explain": (False, True),
    "colours": COLOURS,
}
"""Each setting and the values it cycles through."""

_WHAT = {
    "level": "opponents: easy RandomBot, normal EfficiencyBot, hard ExpertBot (next match)",
    "hints": "the hints panel open when a match starts (t opens and closes it)",
    "explain": "the hints explain the advice: the candidates and their figures",
    "colours": "full: the tiles' colours; basic: 16 colours; none: no colour, marks only",
}


def _shown(v: object) -> str:
    if isinstance(v, bool):
        return "on" if v else "off"
    return str(v)


class SettingsScreen(ModalScreen[Settings]):
    """Edits a copy of the settings; dismissed with the settings as they are when it
    closes."""

    DEFAULT_CSS = """
    SettingsScreen { align: center middle; }
    SettingsScreen > Vertical {
        width: 84; height: auto; border: thick $accent; background: $surface; padding: 1 2;
    }
    """

    BINDINGS = [
        Binding("up", "row(-1)", "Up", show=False),
        Binding("down", "row(1)", "Down", show=False),
        Binding("left", "change(-1)", "Change", show=False),
        Binding("right", "change(1)", "Change", show=False),
        Binding("space", "change(1)", "Change", show=False),
        Binding("enter", "change(1)", "Change", show=False),
        Binding("escape", "close", "Close"),
        Binding("o", "close", "Close", show=False),
        Binding("q", "close", "Close", show=False),
    ]

    def __init__(self, settings: Settings, saved_to: str | None = None) -> None:
        super().__init__()
        self.settings = replace(settings)
        self.saved_to = saved_to
        self.row = 0

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("", id="settings-body")

    def on_mount(self) -> None:
        self.redraw()

    def redraw(self) -> None:
        """Draws the settings, the selected one highlighted."""
        t = Table(title="Settings", title_style="bold", show_header=False, expand=True)
        t.add_column(no_wrap=True)
        t.add_column(no_wrap=True)
        t.add_column(style="dim")
        for i, name in enumerate(CHOICES):
            value = getattr(self.settings, name)
            style = "bold reverse" if i == self.row else ""
            t.add_row(Text(name, style=style), Text(f"◀ {_shown(value)} ▶"), _WHAT[name])
        foot = Text(
            "↑↓ choose, ←→ change, Esc closes. "
            + (
                f"Saved in {self.saved_to}."
                if self.saved_to
                else "Not saved: this game has no data directory."
            ),
            style="dim",
        )
        self.query_one("#settings-body", Static).update(Group(t, foot))

    def action_row(self, step: int) -> None:
        self.row = (self.row + step) % len(CHOICES)
        self.redraw()

    def action_change(self, step: int) -> None:
        name = list(CHOICES)[self.row]
        values = CHOICES[name]
        now = values.index(getattr(self.settings, name))
        setattr(self.settings, name, values[(now + step) % len(values)])
        self.redraw()

    def action_close(self) -> None:
        self.dismiss(self.settings)
