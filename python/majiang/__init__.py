"""majiang: Chinese mahjong with a Rust core.

Three rule sets (``gb`` Chinese Official / MCR, ``classic`` ClassicFour, ``huainan`` with
wild 宝 tiles), a fast rules oracle (shanten, useful tiles, waits, fan evaluation), a
simulator for millions of hands, bots, and a terminal game against three AI opponents.

Tile codes: 0-8 ``1m``-``9m``, 9-17 ``1p``-``9p``, 18-26 ``1s``-``9s``, 27-33 ``1z``-``7z``
(东 南 西 北 中 发 白), 34-41 flowers ``1f``-``8f``. Wherever a function takes a hand it
accepts MPSZ text or a sequence of codes.

Every exception majiang raises derives from :class:`MajiangError` (see
:mod:`majiang.errors`); :data:`__all__` lists the public names.
"""

from . import bots, botzone, env, errors, signing
from ._core import (
    Action,
    Match,
    Meld,
    Observation,
    Round,
    RuleSet,
    format_tiles,
    parse_tiles,
    tile_glyph,
    tile_name,
    tile_name_zh,
    wind_name,
)
from .errors import (
    ArenaBotError,
    BotError,
    BotTimeoutError,
    DataError,
    IllegalActionError,
    IllegalBotActionError,
    InvalidArgumentError,
    InvalidHandError,
    InvalidTypeError,
    LogError,
    MajiangError,
    MissingExtraError,
    NotWinningError,
    OutOfMemoryError,
    ProtocolError,
    RecordError,
    ReplayMismatchError,
    ResultFileError,
    RuleError,
    ShardError,
    UsageError,
)
from .fan import (
    FLAG_ABOUT_KONG,
    FLAG_DECLARED_READY,
    FLAG_FOURTH_TILE,
    FLAG_SELF_DRAWN,
    FLAG_WALL_LAST,
    MELD_CHOW,
    MELD_CONCEALED_KONG,
    MELD_KONG,
    MELD_NONE,
    MELD_PUNG,
    N_FAN_IDS,
    Fan,
    FanResult,
    evaluate_fan,
    evaluate_fan_batch,
    evaluate_fan_pymahjonggb,
    fan_catalog,
)
from .game import Game
from .huainan import (
    HuainanScore,
    bao_for_indicator,
    bao_indicator_index,
    is_bao_diaotou,
    score_huainan,
    score_huainan_special,
)
from .ladder import LadderResult, fit_ratings, ladder
from .oracle import is_win, shanten, shanten_batch, shanten_forms, useful_tiles, waits
from .record import HandRecord, MatchRecord, replay_record
from .sim import MAX_IN_MEMORY_HANDS, MAX_THREADS, ArenaResult, SimResult, arena, simulate

__version__ = "0.1.0"

__all__ = [
    # tiles and melds
    "Meld",
    "format_tiles",
    "parse_tiles",
    "tile_glyph",
    "tile_name",
    "tile_name_zh",
    "wind_name",
    # rules
    "RuleSet",
    # oracle
    "is_win",
    "shanten",
    "shanten_batch",
    "shanten_forms",
    "useful_tiles",
    "waits",
    # fans
    "FLAG_ABOUT_KONG",
    "FLAG_DECLARED_READY",
    "FLAG_FOURTH_TILE",
    "FLAG_SELF_DRAWN",
    "FLAG_WALL_LAST",
    "MELD_CHOW",
    "MELD_CONCEALED_KONG",
    "MELD_KONG",
    "MELD_NONE",
    "MELD_PUNG",
    "N_FAN_IDS",
    "Fan",
    "FanResult",
    "evaluate_fan",
    "evaluate_fan_batch",
    "evaluate_fan_pymahjonggb",
    "fan_catalog",
    # huainan
    "HuainanScore",
    "bao_for_indicator",
    "bao_indicator_index",
    "is_bao_diaotou",
    "score_huainan",
    "score_huainan_special",
    # play
    "Action",
    "Game",
    "HandRecord",
    "Match",
    "MatchRecord",
    "Observation",
    "Round",
    "replay_record",
    # simulation, arena, ladder
    "MAX_IN_MEMORY_HANDS",
    "MAX_THREADS",
    "ArenaResult",
    "LadderResult",
    "SimResult",
    "arena",
    "fit_ratings",
    "ladder",
    "simulate",
    # errors
    "ArenaBotError",
    "BotError",
    "BotTimeoutError",
    "DataError",
    "IllegalActionError",
    "IllegalBotActionError",
    "InvalidArgumentError",
    "InvalidHandError",
    "InvalidTypeError",
    "LogError",
    "MajiangError",
    "MissingExtraError",
    "NotWinningError",
    "OutOfMemoryError",
    "ProtocolError",
    "RecordError",
    "ReplayMismatchError",
    "ResultFileError",
    "RuleError",
    "ShardError",
    "UsageError",
    # subpackages
    "bots",
    "botzone",
    "env",
    "errors",
    "signing",
]
