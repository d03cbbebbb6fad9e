"""The action log of the table: every draw, discard, claim, kong, flower and win of the
hand as a line of text, in order, as the person sees it.

:class:`ActionLog` turns the events of each :class:`~majiang.ui.controller.Move` into
lines. It says plainly when the person's claim did not happen because another seat's
claim took the tile (a pung or a win beats a chow, a win beats a pung), and counts the
wall down at every draw. Nothing here knows the rules beyond reading the events.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text

from .._core import Action
from .tiles import inline, inline_tiles, suit_style

__all__ = ["ActionLog", "LogLine"]

_CLAIMS = ("chow", "pung", "kong", "win")
_HOW = {"self_drawn": "by self-draw", "discard": "on a discard", "robbed_kong": "robbing a kong"}


@dataclass
class LogLine:
    """One line of the log: the hand it belongs to, its text, and whether it is worth a
    pause of the table (draws are not)."""

    hand: int
    text: Text
    notable: bool = True


@dataclass
class ActionLog:
    """The lines of the match so far (all hands), built from the moves' events.

    ``names``: the seat names (``You``, ``Right``, ...). ``ascii``: tiles as ``5m``.
    ``unit``: what a win's value counts (``fan``, or ``points`` in huainan).
    ``person``: the seat addressed as "you" (None: nobody, as in a bots' record).
    """

    names: Sequence[str]
    ascii: bool = False
    unit: str = "fan"
    person: int | None = 0
    lines: list[LogLine] = field(default_factory=list)
    hand: int = 0
    _claim: Action | None = None

    def start_hand(self, number: int, n_hands: int, dealer: int) -> None:
        """A new hand begins."""
        self.hand = number
        self._claim = None
        head = Text(f"── Hand {number} of {n_hands}: {self.names[dealer]} deal", style="bold")
        head.append("" if dealer == self.person else "s", style="bold")
        self.lines.append(LogLine(number, head))

    def note(self, text: Text | str, notable: bool = True) -> None:
        """Adds a line of its own."""
        self.lines.append(
            LogLine(self.hand, Text(text) if isinstance(text, str) else text, notable)
        )

    def _tile(self, out: Text, t: int) -> None:
        out.append(inline(t, self.ascii), style=suit_style(t))

    def add(
        self,
        seat: int,
        action: Action,
        events: Sequence[dict[str, Any]],
        wall_after: int | None = None,
    ) -> int:
        """Adds the lines of one move (`seat` chose `action`, which caused `events`);
        `wall_after` is the wall count once the move is done (draws are counted back from
        it). Returns the number of notable lines added."""
        added = 0
        draws_left = sum(1 for e in events if e.get("type") == "draw")
        if seat == self.person and action.kind in _CLAIMS and action.tile is not None:
            self._claim = action
        for e in events:
            kind = e.get("type")
            if kind == "draw":
                draws_left -= 1
                wall = None if wall_after is None else wall_after + draws_left
                self.lines.append(LogLine(self.hand, self._draw(e, wall), notable=False))
                continue
            overridden = self._overridden(e)
            if overridden is not None:
                self.lines.append(LogLine(self.hand, overridden))
                added += 1
            said = self._event(e)
            if said is not None and kind == "discard" and e.get("seat") != seat:
                # Nobody chose this discard: the rules played it for a seat that declared
                # ready (classic 报听 discards every drawn tile that does not win).
                said.append(
                    " (automatic after declaring ready)"
                    if self.ascii
                    else " (automatic after 报听, declaring ready)",
                    style="yellow",
                )
            if said is not None:
                self.lines.append(LogLine(self.hand, said))
                added += 1
        return added

    def _draw(self, e: dict[str, Any], wall: int | None) -> Text:
        seat = e["seat"]
        out = Text(f"{self.names[seat]} draw{'' if seat == self.person else 's'} ", style="dim")
        if e.get("tail"):
            out.append("a replacement tile ", style="dim")
        t = e.get("tile")
        if t is not None:
            self._tile(out, t)
            out.append(" ")
        if wall is not None:
            out.append(f"(wall {wall})", style="dim")
        return out

    def _overridden(self, e: dict[str, Any]) -> Text | None:
        """The line saying that the person's claim was beaten, when `e` resolves the
        claim window some other way."""
        claim = self._claim
        if claim is None:
            return None
        kind = e.get("type")
        if kind in ("chow", "pung", "kong", "win") and e.get("seat") == self.person:
            self._claim = None
            return None
        if kind not in ("chow", "pung", "kong", "win", "draw", "discard"):
            return None
        self._claim = None
        out = Text("Your ", style="bold red")
        out.append(claim.kind + " ", style="bold red")
        t = claim.tile
        assert t is not None
        out.append_text(
            inline_tiles((t, t + 1, t + 2) if claim.kind == "chow" else (t,), self.ascii, sep="")
        )
        if kind in ("chow", "pung", "kong", "win"):
            who = self.names[e["seat"]]
            verb = {"win": "wins on it", "chow": "chows it"}.get(kind, f"{kind}s it")
            out.append(f" was overridden: {who} {verb}", style="bold red")
            out.append(" (a win beats a pung or a kong, they beat a chow)", style="dim")
        else:
            out.append(" did not happen", style="bold red")
        return out

    def _event(self, e: dict[str, Any]) -> Text | None:
        kind = e.get("type")
        seat = e.get("seat")
        who = self.names[seat] if seat is not None else ""
        s = "" if seat == self.person else "s"
        # Every event the log names a tile of has one; only another seat's concealed kong
        # hides it (None).
        t: int = e.get("tile", -1)
        out = Text()
        if kind == "discard":
            out.append(f"{who} discard{s} ")
            self._tile(out, t)
            if e.get("ready"):
                out.append(f" and declare{s} ready", style="bold red")
        elif kind == "flower":
            out.append(f"{who} set{s} aside the flower ")
            self._tile(out, t)
        elif kind in ("chow", "pung", "kong"):
            tiles = (
                [e["low"], e["low"] + 1, e["low"] + 2]
                if kind == "chow"
                else [t] * (3 if kind == "pung" else 4)
            )
            out.append(f"{who} {kind}{s} ", style="bold")
            self._tile(out, t)
            out.append(f" from {self.names[e['from']]}: ")
            out.append_text(inline_tiles(tiles, self.ascii, sep=""))
        elif kind == "concealed_kong":
            out.append(f"{who} declare{s} a concealed kong", style="bold")
            if e.get("tile") is not None:
                out.append(" of ")
                self._tile(out, t)
        elif kind == "added_kong":
            out.append(f"{who} add{s} ", style="bold")
            self._tile(out, t)
            out.append(" to a pung, making a kong")
        elif kind == "win":
            out.append(f"{who} win{s} ", style="bold green")
            how = e.get("how", "")
            if how == "self_drawn":
                out.append("by self-draw with ")
            else:
                src = "your" if e["from"] == self.person else f"{self.names[e['from']]}'s"
                verb = "discard" if how == "discard" else "kong"
                out.append(f"on {src} {verb} " if how == "discard" else f"robbing {src} {verb} ")
            self._tile(out, t)
            if e.get("fan") is not None:
                unit = self.unit[:-1] if e["fan"] == 1 and self.unit == "points" else self.unit
                out.append(f"  {e['fan']} {unit}", style="bold")
        elif kind == "exhaustive_draw":
            out.append("The wall is empty: nobody wins this hand", style="bold")
        elif kind == "penalty":
            out.append(
                f"{who} declared a false win and pays {e.get('each')} to each", style="bold red"
            )
        elif kind == "bao":
            out.append("The 宝 indicator " if not self.ascii else "The wild indicator ")
            self._tile(out, e["indicator"])
            out.append(" makes every ")
            self._tile(out, e["tile"])
            out.append(" wild")
        else:
            return None
        return out
