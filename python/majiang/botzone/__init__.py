"""Botzone: majiang's bots on the GB mahjong AI platform (https://botzone.org.cn).

- :mod:`.protocol`: tile names, requests and responses of the Chinese Standard Mahjong
  game, parsed and written back;
- :mod:`.table`: a bot's picture of the hand, built from its requests;
- :class:`BotzonePlayer`: a built-in bot answering requests, never with a move the judge
  refuses;
- :func:`run`: simple IO, JSON IO and keep-running mode (``majiang botzone``);
- :mod:`.log`: a majiang hand as the judge's input log (:func:`write_log`) and a Botzone
  log read back as a match record (:func:`read_log`).
"""

from .._core import RuleSet
from .io import KEEP_RUNNING, run
from .log import LogError, judge_log, parse_log, read_log, write_log
from .player import BOTS, BotzonePlayer
from .protocol import (
    Deal,
    Draw,
    Move,
    Position,
    ProtocolError,
    Response,
    format_request,
    format_response,
    parse_request,
    parse_response,
    tile_code,
    tile_name,
)
from .table import Table

__all__ = [
    "BOTS",
    "KEEP_RUNNING",
    "LogError",
    "BotzonePlayer",
    "Deal",
    "Draw",
    "Move",
    "Position",
    "ProtocolError",
    "Response",
    "Table",
    "format_request",
    "format_response",
    "judge_log",
    "parse_log",
    "parse_request",
    "parse_response",
    "read_log",
    "rules",
    "run",
    "tile_code",
    "tile_name",
    "write_log",
]


def rules(*, flowers: bool = False, exact_scores: bool = True) -> RuleSet:
    """The ``gb`` rule set on Botzone's table (docs/rules/botzone.md): private walls
    (B-1), no flowers unless ``flowers`` (B-2), one hand per match (B-3), a false win
    ending the hand with the judge's penalty (B-4) and, with ``exact_scores``, the 2020
    calculator's wait fans (B-5). With the defaults this is ``RuleSet("botzone")``, the
    registry's preset."""
    return RuleSet("botzone", flowers=flowers, wait_fans_on_knitted_tile=not exact_scores)
