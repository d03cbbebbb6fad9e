"""How tiles look on screen: faces, colours and short inline names.

Two styles. The default draws a tile the way the real one is printed: the rank as a
Chinese numeral over the suit (``五`` over ``万``), honours and flowers as their character
(``东``, ``中``, ``梅``). ``ascii`` writes the MPSZ name (``5m``, ``1z``) for terminals
without CJK fonts. Chinese characters are two cells wide in every terminal, so the
layout stays aligned; the mahjong block of Unicode (🀇) is not used because terminals
disagree about its width.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text

from .._core import tile_name, tile_name_zh
from ..coach.store import COLOURS
from ..errors import InvalidArgumentError

__all__ = [
    "COLOUR_SCHEMES",
    "UNKNOWN",
    "colours",
    "face_lines",
    "inline",
    "inline_tiles",
    "meld_text",
    "meld_tiles",
    "set_colours",
    "suit_style",
    "wind_char",
    "wind_label",
]

UNKNOWN = -1
"""A tile the person may not see (another seat's concealed kong)."""

_NUMERALS = "一二三四五六七八九"
_SUITS = "万筒条"
_WINDS_ZH = "东南西北"
_WINDS_EN = ("East", "South", "West", "North")


_ON_DARK = ("#ff6b6b", "#6fa8ff", "#5fd38a", "#e6e6e6", "#ff6b6b", "#5fd38a", "#6fa8ff", "#e08ee0")
_ON_TILE = ("#b3261e", "#1d4f91", "#1b7a3a", "#1e1e1e", "#b3261e", "#1b7a3a", "#1d4f91", "#8e3a8e")
# The 16 colours every terminal has, by name (the terminal's own palette shows them).
_ON_DARK_BASIC = (
    "bright_red",
    "bright_blue",
    "bright_green",
    "bright_white",
    "bright_red",
    "bright_green",
    "bright_blue",
    "bright_magenta",
)
_ON_TILE_BASIC = ("red", "blue", "green", "black", "red", "green", "blue", "magenta")

COLOUR_SCHEMES = COLOURS
"""How tiles are coloured: ``full`` (their own colours, downgraded by the terminal when it
has fewer), ``basic`` (the 16 named colours, shown in the terminal's own palette) and
``none`` (no colour: the rank, suit and the markers tell everything)."""

_scheme = "full"


def set_colours(scheme: str) -> None:
    """Chooses the colour scheme of the tiles (one of :data:`COLOUR_SCHEMES`)."""
    global _scheme
    if scheme not in COLOUR_SCHEMES:
        raise InvalidArgumentError(
            f"colours must be one of {', '.join(COLOUR_SCHEMES)}, not {scheme!r}"
        )
    _scheme = scheme


def colours() -> str:
    """The colour scheme in use."""
    return _scheme


def _colour_index(t: int) -> int:
    if t < 27:
        return t // 9
    if t < 31:
        return 3
    if t < 34:
        return 4 + (t - 31)
    return 7


def suit_style(t: int, on_tile: bool = False) -> str:
    """The Rich style of a tile: characters red, dots blue, bamboo green, winds plain,
    中 red, 发 green, 白 blue, flowers purple; darker shades ``on_tile`` (printed on the
    ivory face), lighter ones for text on the dark table."""
    if t < 0:
        return "dim"
    if _scheme == "none":
        return "bold"
    if _scheme == "basic":
        palette = _ON_TILE_BASIC if on_tile else _ON_DARK_BASIC
    else:
        palette = _ON_TILE if on_tile else _ON_DARK
    return f"bold {palette[_colour_index(t)]}"


def face_lines(t: int, ascii: bool = False) -> tuple[str, str]:
    """The two lines printed on a tile in the hand: ``("五", "万")`` or, with
    ``ascii``, ``("5m", "")``; honours ``("中", "")``, an unknown tile ``("??", "")``."""
    if t < 0:
        return ("▒▒", "")
    if ascii:
        return (tile_name(t), "")
    if t < 27:
        return (_NUMERALS[t % 9], _SUITS[t // 9])
    return (tile_name_zh(t), "")


def inline(t: int, ascii: bool = False) -> str:
    """A tile's short name for pools and melds: ``5万`` / ``东`` / ``梅``, or ``5m`` with
    ``ascii``."""
    if t < 0:
        return "▒▒"
    if ascii:
        return tile_name(t)
    if t < 27:
        return f"{t % 9 + 1}{_SUITS[t // 9]}"
    return tile_name_zh(t)


def inline_tiles(tiles: Iterable[int], ascii: bool = False, sep: str = " ") -> Text:
    """Tiles as coloured inline text."""
    out = Text()
    for i, t in enumerate(tiles):
        if i:
            out.append(sep)
        out.append(inline(t, ascii), style=suit_style(t))
    return out


def meld_text(kind: str, tiles: Iterable[int], ascii: bool = False) -> Text:
    """A meld in brackets; a concealed kong is marked ``暗`` (``cK`` with ``ascii``)."""
    out = Text("[")
    out.append_text(inline_tiles(tiles, ascii, sep=""))
    if kind == "concealed_kong":
        out.append(" cK" if ascii else " 暗", style="dim")
    out.append("]")
    return out


def meld_tiles(kind: str, tiles: Iterable[int], ascii: bool = False) -> Text:
    """A meld drawn as small tiles side by side (dark print on ivory faces, each face one
    cell apart), a concealed kong's hidden tiles as backs; ``暗`` marks a concealed kong
    (``cK`` with ``ascii``)."""
    out = Text()
    for i, t in enumerate(tiles):
        if i:
            out.append("▕", style="#8a7f66 on #f2ead3")
        face = inline(t, ascii) if t >= 0 else "  "
        back = "on #2e7d32" if t < 0 else "on #f2ead3"
        style = suit_style(t, on_tile=True) if t >= 0 else "dim"
        out.append(face, style=f"{style} {back}")
    if kind == "concealed_kong":
        out.append(" cK" if ascii else " 暗", style="dim")
    return out


def wind_char(w: int, ascii: bool = False) -> str:
    """A wind as ``东`` (or ``E`` with ``ascii``)."""
    return "ESWN"[w] if ascii else _WINDS_ZH[w]


def wind_label(w: int, ascii: bool = False) -> str:
    """A wind as ``东 East`` (or ``East`` with ``ascii``)."""
    return _WINDS_EN[w] if ascii else f"{_WINDS_ZH[w]} {_WINDS_EN[w]}"
