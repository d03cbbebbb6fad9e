"""Botzone: majiang's bots on the GB mahjong AI platform (https://botzone.org.cn).

- :mod:`.protocol`: tile names, requests and responses of the Chinese Standard Mahjong
  game, parsed and written back;
- :mod:`.table`: a bot's picture of the hand, built from its requests;
- :class:`BotzonePlayer`: a built-in bot answering requests, never with a move the judge
  refuses;
- :func:`run`: simple IO, JSON IO and keep-running mode (``majiang botzone``);
- :mod:`.log`: a majiang hand as the judge's input log (:func:`write_log`) and a Botzone
  log read back as a match record (:func:`read_log`);
- :class:`BotzoneBot`: an external Botzone bot program as a majiang bot (also
  ``majiang.bots.BotzoneBot``), contained in its own process group with a time limit per
  decision.
"""

from .external import BotzoneBot
from .io import KEEP_RUNNING, run
from .log import LogError, judge_log, parse_log, read_log, write_log
from .player import BOTS, BotzonePlayer
from .preset import rules
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
    "BotzoneBot",
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
