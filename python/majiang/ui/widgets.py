"""The widgets of the table: tiles, the person's hand, a seat's panel, the action bar.

Nothing here knows the rules: the widgets show what they are given and report clicks as
messages; :mod:`majiang.ui.app` decides what a click means.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Button, Static

from .tiles import face_lines, inline, inline_tiles, meld_tiles, suit_style, wind_label

__all__ = ["ActionBar", "HandBar", "KeyButton", "SeatPanel", "TileWidget"]

MAX_CONCEALED = 14


class TileWidget(Static):
    """One tile of the person's hand. Clicking it posts :class:`TileWidget.Clicked`."""

    DEFAULT_CSS = """
    TileWidget {
        width: 5;
        height: 4;
        margin-top: 1;
        border: round #8a7f66;
        content-align: center middle;
        text-align: center;
        background: #f2ead3;
    }
    TileWidget.-ascii { height: 3; }
    TileWidget.-selected {
        margin-top: 0;
        border: round #e0a800;
        background: #ffe9a8;
    }
    TileWidget.-drawn { margin-left: 2; }
    TileWidget.-wild { border: heavy #c62828; }
    TileWidget.-danger { background: #ffb3a7; }
    TileWidget.-advised { background: #cdeccd; border: round #2e7d32; }
    """

    DANGER_MARK = "!"
    """Marks a tile the hints read as likely to deal in, beside its rank: a sign that
    shows in every terminal, whatever its colours (the shading alone is lost where two
    shades map to one colour, in 256 or 16 colours, and in monochrome)."""
    ADVISED_MARK = "*"
    """Marks the tile the hints advise discarding (beside its suit; in ``ascii``, where a
    tile has one line, beside its name when it is not marked dangerous)."""

    class Clicked(Message):
        """A tile of the hand was clicked (its slot: 0.. for the hand, ``MAX_CONCEALED``
        for the drawn tile)."""

        def __init__(self, slot: int) -> None:
            super().__init__()
            self.slot = slot

    def __init__(self, slot: int, ascii: bool = False) -> None:
        super().__init__("", classes="-ascii" if ascii else "")
        self.slot = slot
        self.ascii = ascii
        self.tile = -1
        self._shown: tuple[int, bool, bool, bool, bool] | None = None

    def set_tile(
        self,
        tile: int,
        selected: bool,
        wild: bool = False,
        advised: bool = False,
        danger: bool = False,
    ) -> None:
        """Shows `tile`, highlighted when `selected`, framed in red when it is `wild`
        (a huainan 宝), shaded green and marked ``*`` when the hints advise discarding it,
        shaded red and marked ``!`` when the hints read it as likely to deal in
        (`danger`)."""
        self.set_class(advised, "-advised")
        self.set_class(danger and not advised, "-danger")
        key = (tile, selected, wild, advised, danger)
        if key == self._shown:
            return
        self._shown = key
        self.set_class(wild, "-wild")
        self.tile = tile
        top, bottom = face_lines(tile, self.ascii)
        style = suit_style(tile, on_tile=True)
        # Each line keeps a cell for its mark (three cells inside the frame), so the face
        # does not move when a mark comes or goes.
        marks = (
            ("!" if danger else "*" if advised else " ", "")
            if not bottom
            else (
                self.DANGER_MARK if danger else " ",
                self.ADVISED_MARK if advised else " ",
            )
        )
        text = Text(top, style=style)
        text.append(marks[0], style="bold #b3261e")
        if bottom:
            text.append("\n")
            text.append(bottom, style=style)
            text.append(marks[1], style="bold #1b7a3a")
        self.update(text, layout=False)
        self.set_class(selected, "-selected")

    def on_click(self) -> None:
        self.post_message(self.Clicked(self.slot))


class HandBar(Horizontal):
    """The person's concealed tiles in order, and the drawn tile set apart on the right."""

    DEFAULT_CSS = """
    HandBar { height: 5; padding: 0 0 0 1; background: $background; }
    HandBar.-ascii { height: 4; }
    """

    def __init__(self, ascii: bool = False, id: str | None = None) -> None:
        super().__init__(id=id, classes="-ascii" if ascii else "")
        self.ascii = ascii
        self.slots = [TileWidget(i, ascii) for i in range(MAX_CONCEALED)]
        self.drawn_slot = TileWidget(MAX_CONCEALED, ascii)
        self.drawn_slot.add_class("-drawn")
        self.tiles: list[int] = []
        self.drawn: int | None = None
        self.selected: int | None = None
        self.wild: int | None = None
        self.advised: int | None = None
        # Kinds the hints read as likely to deal in (shaded while hints are shown).
        self.danger: frozenset[int] = frozenset()

    def compose(self) -> ComposeResult:
        yield from self.slots
        yield self.drawn_slot

    def show(self, tiles: Sequence[int], drawn: int | None, selected: int | None) -> None:
        """Shows `tiles` (without the drawn one) and `drawn`; `selected` indexes
        `tiles`, with ``len(tiles)`` meaning the drawn tile."""
        self.tiles = list(tiles)
        self.drawn = drawn
        self.selected = selected
        # The advised discard is shaded once: the drawn tile if it is that tile, else the
        # rightmost copy in the hand.
        advised_slot = -1
        if self.advised is not None:
            if drawn == self.advised:
                advised_slot = len(self.tiles)
            elif self.advised in self.tiles:
                advised_slot = len(self.tiles) - 1 - self.tiles[::-1].index(self.advised)
        for i, w in enumerate(self.slots):
            if i < len(self.tiles):
                w.set_tile(
                    self.tiles[i],
                    selected == i,
                    self.tiles[i] == self.wild,
                    i == advised_slot,
                    self.tiles[i] in self.danger,
                )
                if not w.display:
                    w.display = True
            elif w.display:
                w.display = False
        if drawn is None:
            if self.drawn_slot.display:
                self.drawn_slot.display = False
        else:
            self.drawn_slot.set_tile(
                drawn,
                selected == len(self.tiles),
                drawn == self.wild,
                advised_slot == len(self.tiles),
                drawn in self.danger,
            )
            if not self.drawn_slot.display:
                self.drawn_slot.display = True


class SeatPanel(Static):
    """One seat: who and where, score, tiles in hand, melds (drawn as tiles), flowers and
    every discard in order: the latest discard on the table highlighted and marked, a
    discard another seat claimed kept in place, struck through and dimmed."""

    DEFAULT_CSS = """
    SeatPanel { height: auto; padding: 0 1; }
    SeatPanel.-turn { background: $boost; }
    """

    def __init__(self, seat: int, ascii: bool = False, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.seat = seat
        self.ascii = ascii
        self._shown: tuple | None = None
        self._lines = 0

    def show(
        self,
        *,
        name: str,
        wind: int,
        dealer: bool,
        score: int,
        hand_size: int,
        melds: Sequence[tuple[str, Sequence[int]]],
        flowers: Sequence[int],
        discards: Sequence[tuple[int, bool] | int],
        last_discard: bool,
        on_turn: bool,
        ready: bool = False,
        concealed: Sequence[int] | None = None,
    ) -> None:
        """Redraws the panel from plain values; `discards` are tiles or ``(tile,
        claimed)`` pairs; `concealed` (a replay, where every hand is open) shows the
        seat's concealed tiles on a line of their own."""
        pool_tiles = [d if isinstance(d, tuple) else (d, False) for d in discards]
        key = (
            name,
            wind,
            dealer,
            score,
            hand_size,
            tuple((k, tuple(t)) for k, t in melds),
            tuple(flowers),
            tuple(pool_tiles),
            last_discard,
            on_turn,
            ready,
            None if concealed is None else tuple(concealed),
        )
        if key == self._shown:
            return
        self._shown = key
        a = self.ascii
        head = Text()
        head.append("▶ " if on_turn else "  ", style="bold yellow")
        head.append(name, style="bold")
        head.append(f"  {wind_label(wind, a)}", style="cyan")
        if dealer:
            head.append(" (dealer)" if a else " 庄", style="bold yellow")
        head.append(f"  score {score:+d}", style="bold")
        head.append(f"  tiles {hand_size}")
        if ready:
            head.append("  READY" if a else "  听", style="bold red")
        if melds:
            head.append("  melds ")
            for i, (kind, tiles) in enumerate(melds):
                if i:
                    head.append(" ")
                head.append_text(meld_tiles(kind, tiles, a))
        if flowers:
            head.append("  flowers " if a else "  花 ")
            head.append_text(inline_tiles(flowers, a))
        lines_out = [head]
        if concealed is not None:
            open_hand = Text("    ")
            open_hand.append_text(meld_tiles("hand", concealed, a))
            lines_out.append(open_hand)
        pool = Text("    ")
        if pool_tiles:
            for i, (t, claimed) in enumerate(pool_tiles):
                if i:
                    pool.append(" ")
                last = last_discard and i == len(pool_tiles) - 1
                if claimed:
                    pool.append(inline(t, a), style=suit_style(t) + " dim strike")
                    pool.append("^" if a else "↑", style="dim")
                    continue
                pool.append(inline(t, a), style=suit_style(t) + (" reverse" if last else ""))
                if last:
                    pool.append("<" if a else "◀", style="bold yellow")
        else:
            pool.append("(no discards)", style="dim")
        if self.has_class("-turn") != on_turn:
            self.set_class(on_turn, "-turn")
        body = Text("\n").join([*lines_out, pool])
        width = max(20, (self.size.width or 100) - 2)
        lines = sum(cell_len(line) // width + 1 for line in body.plain.split("\n"))
        self.update(body, layout=lines != self._lines)
        self._lines = lines


class KeyButton(Button):
    """A button that names its key and never takes focus, so the keys always reach the
    game."""

    can_focus = False

    def __init__(self, key: str, label: str) -> None:
        super().__init__(self._text(key, label), name=key or None, compact=True)
        self.key = key

    @staticmethod
    def _text(key: str, label: str) -> Text:
        if not key:
            return Text(label)
        shown = {"space": "Space", "escape": "Esc", "enter": "Enter"}.get(key, key)
        return Text(f"[{shown}] {label}")

    def set_key(self, key: str, label: str) -> None:
        """Gives the button another key and label."""
        self.key = key
        self.label = self._text(key, label)
        # The label does not resize the button by itself: lay it out again.
        self.refresh(layout=True)


class ActionBar(Horizontal):
    """The prompt: a line of text and one button per choice (each with its key). The
    buttons are made once and relabelled, so showing a new prompt is cheap."""

    DEFAULT_CSS = """
    ActionBar { height: 2; padding: 0 1; }
    ActionBar > Static { width: auto; padding: 1 1 0 0; }
    ActionBar > KeyButton { margin: 1 1 0 0; min-width: 6; }
    """

    MAX_CHOICES = 12

    class Chosen(Message):
        """A button of the bar was clicked."""

        def __init__(self, key: str) -> None:
            super().__init__()
            self.key = key

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.prompt: Text | str = ""
        self.choices: list[tuple[str, str]] = []
        self._label = Static("")
        self._buttons = [KeyButton("", "") for _ in range(self.MAX_CHOICES)]

    def compose(self) -> ComposeResult:
        yield self._label
        yield from self._buttons

    def on_mount(self) -> None:
        for b in self._buttons:
            b.display = False

    def show(self, prompt: Text | str, choices: Sequence[tuple[str, str]]) -> None:
        """Shows `prompt` and the `choices` as ``(key, label)``."""
        choices = list(choices)[: self.MAX_CHOICES]
        if prompt != self.prompt:
            self.prompt = prompt
            self._label.update(prompt)
        if choices == self.choices:
            return
        self.choices = choices
        for i, b in enumerate(self._buttons):
            if i < len(choices):
                b.set_key(*choices[i])
                b.display = True
            else:
                b.display = False

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if isinstance(event.button, KeyButton) and event.button.key:
            self.post_message(self.Chosen(event.button.key))
