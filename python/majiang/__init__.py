"""majiang: Chinese mahjong with a Rust core.

Three rule sets (``gb`` Chinese Official / MCR, ``classic`` ClassicFour, ``huainan`` with
wild 宝 tiles), a fast rules oracle (shanten, useful tiles, waits, fan evaluation), a
simulator for millions of hands, bots, and a terminal game against three AI opponents.

Tile codes: 0-8 ``1m``-``9m``, 9-17 ``1p``-``9p``, 18-26 ``1s``-``9s``, 27-33 ``1z``-``7z``
(东 南 西 北 中 发 白), 34-41 flowers ``1f``-``8f``. Wherever a function takes a hand it
accepts MPSZ text or a sequence of codes.
"""

from . import env
from ._core import (
    IllegalActionError,
    InvalidHandError,
    Meld,
    NotWinningError,
    RuleError,
    RuleSet,
    format_tiles,
    parse_tiles,
    tile_glyph,
    tile_name,
    tile_name_zh,
)
from .fan import *  # noqa: F403
from .game import BotError, BotTimeoutError, IllegalBotActionError
from .huainan import *  # noqa: F403
from .ladder import LadderResult, fit_ratings, ladder
from .oracle import *  # noqa: F403
from .play import *  # noqa: F403
from .record import RecordError
from .sim import *  # noqa: F403

__version__ = "0.1.0"
