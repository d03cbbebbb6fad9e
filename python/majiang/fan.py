"""Fan evaluation for ``gb`` (Chinese Official / MCR) and ``classic`` (re-exported by
:mod:`majiang`).

:func:`evaluate_fan` scores one winning hand; :func:`evaluate_fan_batch` scores many
(numpy in, numpy out, GIL released); :func:`fan_catalog` lists the 81 fans plus the
reference calculator's 明暗杠 and ClassicFour's 听牌; :func:`evaluate_fan_pymahjonggb`
takes PyMahjongGB's argument format (``("CHI", "W3", 1)`` packs, ``W``/``B``/``T``/``F``/``J``
codes) and validates it.

Under the default ``gb`` rules the fans are exactly those of PyMahjongGB 1.4.0; see the
``mcr_*`` options of :class:`majiang.RuleSet` for the 2006 MCR readings.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ._core import (
    N_FAN_IDS,
    Fan,
    FanResult,
    InvalidHandError,
    Meld,
    _evaluate_fan_batch,
    evaluate_fan,
    fan_catalog,
)
from .errors import InvalidArgumentError, InvalidTypeError

__all__ = [
    "Fan",
    "FanResult",
    "evaluate_fan",
    "evaluate_fan_batch",
    "evaluate_fan_pymahjonggb",
    "fan_catalog",
    "FLAG_SELF_DRAWN",
    "FLAG_FOURTH_TILE",
    "FLAG_ABOUT_KONG",
    "FLAG_WALL_LAST",
    "FLAG_DECLARED_READY",
    "MELD_NONE",
    "MELD_CHOW",
    "MELD_PUNG",
    "MELD_KONG",
    "MELD_CONCEALED_KONG",
    "N_FAN_IDS",
]

#: Bits of the ``flags`` column of :func:`evaluate_fan_batch` (the reference's win flags).
FLAG_SELF_DRAWN = 1
FLAG_FOURTH_TILE = 2
FLAG_ABOUT_KONG = 4
FLAG_WALL_LAST = 8
FLAG_DECLARED_READY = 16

#: Meld kinds of the ``melds`` array of :func:`evaluate_fan_batch`.
MELD_NONE = 0
MELD_CHOW = 1
MELD_PUNG = 2
MELD_KONG = 3
MELD_CONCEALED_KONG = 4


def _ints(name: str, value: Any) -> np.ndarray:
    """``value`` as an array of integers: an integer array as it is; floats, bools,
    complex numbers and strings refused (``InvalidTypeError``), never rounded; a Python
    int too large for any integer dtype left to the range check (as an object array)."""
    try:
        arr = np.asarray(value)
    except (ValueError, TypeError, OverflowError) as e:
        raise InvalidTypeError(f"{name} must be an array of ints: {e}") from None
    kind = arr.dtype.kind
    if kind in "iu" or arr.size == 0:  # an empty array has no value to round
        return arr
    if kind == "O":
        bad = next(
            (
                x
                for x in arr.ravel()
                if isinstance(x, bool | np.bool_) or not isinstance(x, int | np.integer)
            ),
            None,
        )
        if bad is None:
            return arr
        what = type(bad).__name__
    else:
        what = {"b": "bool", "f": "float", "c": "complex", "U": "str", "S": "bytes"}.get(
            kind, str(arr.dtype)
        )
    raise InvalidTypeError(
        f"{name} must be ints, got {what} values (floats and bools are refused, not rounded)"
    )


def _column(name: str, value: Any, n: int, hi: int) -> np.ndarray:
    arr = _ints(name, value)
    if arr.ndim == 0:
        arr = np.full(n, arr)
    if arr.shape != (n,):
        raise InvalidHandError(f"{name} must be a scalar or have shape ({n},), got {arr.shape}")
    if arr.size and (arr.min() < 0 or arr.max() > hi):
        raise InvalidHandError(f"{name} values must be 0-{hi}")
    return np.ascontiguousarray(arr, dtype=np.uint8)


def evaluate_fan_batch(
    hands: Any,
    win_tiles: Any,
    melds: Any = None,
    flags: Any = 0,
    seat_wind: Any = 0,
    prevalent_wind: Any = 0,
    flowers: Any = 0,
    *,
    rules: Any = "gb",
    threads: int | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Scores many winning hands at once in Rust, with the GIL released.

    Args:
        hands: ``(N, 34)`` concealed-tile counts WITHOUT the winning tile.
        win_tiles: ``(N,)`` winning tile codes (0-33).
        melds: ``(N, 4, 2)`` rows of ``(kind, lowest tile)``; kinds ``MELD_NONE`` (unused
            slot), ``MELD_CHOW``, ``MELD_PUNG``, ``MELD_KONG``, ``MELD_CONCEALED_KONG``.
            ``None`` = no melds.
        flags: ``(N,)`` or a scalar: OR of ``FLAG_SELF_DRAWN``, ``FLAG_FOURTH_TILE``,
            ``FLAG_ABOUT_KONG``, ``FLAG_WALL_LAST``, ``FLAG_DECLARED_READY``.
        seat_wind: ``(N,)`` or a scalar, 0-3 = E S W N.
        prevalent_wind: ``(N,)`` or a scalar, 0-3 = E S W N.
        flowers: ``(N,)`` or a scalar.
        rules: ``"gb"``, ``"classic"`` or a :class:`majiang.RuleSet`.
        threads: worker threads (``None`` = all cores, ``1`` = the calling thread only);
            the results do not depend on it.

    Returns:
        ``(totals, fans)``: ``totals`` int32 ``(N,)`` with flowers included, ``-1`` where
        the tiles do not form a win; ``fans`` uint8 ``(N, N_FAN_IDS)``, the count of each
        fan id (column = id, see :func:`fan_catalog`).

    Every array holds integers: floats (``flags=1.9``), bools and complex numbers raise
    :class:`~majiang.InvalidTypeError` rather than being rounded or cast.

    Raises:
        InvalidHandError: a malformed row (the message gives its index), a value out of
            its range, an array of the wrong shape.
        InvalidTypeError: an array that does not hold ints; ``threads`` not an int.
        InvalidArgumentError: ``threads`` < 1.
    """
    if threads is not None:
        if isinstance(threads, bool) or not isinstance(threads, int):
            raise InvalidTypeError(f"threads must be an int or None, got {type(threads).__name__}")
        if threads < 1:
            raise InvalidArgumentError(f"threads must be >= 1, got {threads}")
    h = _ints("hands", hands)
    if h.ndim != 2 or h.shape[1] != 34:
        raise InvalidHandError(f"hands must have shape (N, 34), got {h.shape}")
    n = h.shape[0]
    if h.size and (h.min() < 0 or h.max() > 4):
        raise InvalidHandError("hand counts must be 0-4")
    h = np.ascontiguousarray(h, dtype=np.uint8)
    w = _column("win_tiles", win_tiles, n, 41)
    if melds is None:
        m = np.zeros((n, 4, 2), dtype=np.uint8)
    else:
        m = _ints("melds", melds)
        if m.shape != (n, 4, 2):
            raise InvalidHandError(f"melds must have shape ({n}, 4, 2), got {m.shape}")
        if m.size and (m.min() < 0 or m.max() > 255):
            raise InvalidHandError("meld values must be 0-255")
        m = np.ascontiguousarray(m, dtype=np.uint8)
    return _evaluate_fan_batch(
        h,
        w,
        m,
        _column("flags", flags, n, 31),
        _column("seat_wind", seat_wind, n, 255),
        _column("prevalent_wind", prevalent_wind, n, 255),
        _column("flowers", flowers, n, 255),
        rules,
        threads,
    )


_SUITS = {"W": "m", "B": "p", "T": "s"}
_HONORS = {"F1": "1z", "F2": "2z", "F3": "3z", "F4": "4z", "J1": "5z", "J2": "6z", "J3": "7z"}


def _ref_tile(code: Any, where: str) -> str:
    if not isinstance(code, str):
        raise InvalidHandError(f"{where}: tile codes are str like 'W1', got {type(code).__name__}")
    if code in _HONORS:
        return _HONORS[code]
    if len(code) == 2 and code[0] in _SUITS and code[1] in "123456789":
        return code[1] + _SUITS[code[0]]
    raise InvalidHandError(
        f"{where}: {code!r} is not a tile code (W1-W9, B1-B9, T1-T9, F1-F4, J1-J3; "
        "flowers are passed as a count)"
    )


def evaluate_fan_pymahjonggb(
    pack: Sequence[Sequence[Any]],
    hand: Sequence[str],
    win_tile: str,
    flower_count: int,
    is_self_drawn: bool,
    is_4th_tile: bool,
    is_about_kong: bool,
    is_wall_last: bool,
    seat_wind: int,
    prevalent_wind: int,
    *,
    rules: Any = "gb",
) -> FanResult:
    """Scores a hand given in PyMahjongGB's ``MahjongFanCalculator`` argument format.

    ``pack`` holds ``(type, tile, offer)`` with ``type`` ``"CHI"`` (``tile`` = the middle
    tile), ``"PENG"`` or ``"GANG"``; ``offer`` 0-3, where 0 on a ``GANG`` is a concealed
    kong and 0 on ``CHI``/``PENG`` a set that was never claimed (its tiles count as
    concealed). Unlike the reference, bad codes, fifth copies, honor chows, winds and
    flowers out of range and impossible flags raise :class:`majiang.InvalidHandError`.
    """
    if isinstance(hand, str) or not isinstance(hand, Sequence):
        raise InvalidHandError("hand must be a sequence of tile codes like 'W1'")
    if isinstance(pack, str) or not isinstance(pack, Sequence):
        raise InvalidHandError("pack must be a sequence of (type, tile, offer)")
    if len(pack) > 4:
        raise InvalidHandError(f"{len(pack)} packs given, at most 4")
    concealed = [_ref_tile(t, f"hand item {i}") for i, t in enumerate(hand)]
    melds: list[Meld] = []
    for i, p in enumerate(pack):
        if isinstance(p, str) or not isinstance(p, Sequence) or len(p) != 3:
            raise InvalidHandError(f"pack {i} must be (type, tile, offer), got {p!r}")
        kind, code, offer = p
        tile = _ref_tile(code, f"pack {i}")
        if isinstance(offer, bool) or not isinstance(offer, int) or not 0 <= offer <= 3:
            raise InvalidHandError(f"pack {i}: offer {offer!r} is not 0-3")
        rank, suit = int(tile[0]), tile[1]
        if kind == "CHI":
            if suit == "z" or rank in (1, 9):
                raise InvalidHandError(
                    f"pack {i}: CHI {code} is not the middle of a chow (honors and 1/9 cannot be)"
                )
            tiles = f"{rank - 1}{rank}{rank + 1}{suit}"
            if offer == 0:
                concealed += [f"{rank - 1}{suit}", tile, f"{rank + 1}{suit}"]
            else:
                melds.append(Meld("chow", tiles))
        elif kind == "PENG":
            if offer == 0:
                concealed += [tile] * 3
            else:
                melds.append(Meld("pung", tile[0] * 3 + suit))
        elif kind == "GANG":
            melds.append(Meld("kong" if offer else "concealed_kong", tile[0] * 4 + suit))
        else:
            raise InvalidHandError(f"pack {i}: type {kind!r} is not CHI, PENG or GANG")
    for name, v in (
        ("flower_count", flower_count),
        ("seat_wind", seat_wind),
        ("prevalent_wind", prevalent_wind),
    ):
        if isinstance(v, bool) or not isinstance(v, int):
            raise InvalidHandError(f"{name} must be an int, got {type(v).__name__}")
    return evaluate_fan(
        "".join(concealed),
        _ref_tile(win_tile, "win_tile"),
        melds,
        self_drawn=bool(is_self_drawn),
        fourth_tile=bool(is_4th_tile),
        about_kong=bool(is_about_kong),
        wall_last=bool(is_wall_last),
        seat_wind=seat_wind,
        prevalent_wind=prevalent_wind,
        flowers=flower_count,
        rules=rules,
    )
