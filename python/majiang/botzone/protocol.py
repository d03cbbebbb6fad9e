"""The Botzone Chinese Standard Mahjong protocol: tile names, requests and responses.

Botzone names tiles ``W1``-``W9`` (万), ``B1``-``B9`` (筒), ``T1``-``T9`` (条), ``F1``-``F4``
(东 南 西 北), ``J1``-``J3`` (中 发 白) and ``H1``-``H8`` (flowers), which is majiang's code
order: ``W1`` is code 0, ``J3`` code 33, ``H1`` code 34.

Requests, one line each (``p`` a player 0-3; player 0 is the dealer and East):

- ``0 me quan``: the bot's player id and the prevalent wind;
- ``1 f0 f1 f2 f3 <13 tiles> <flowers>``: the deal, every player's flower count, the bot's
  13 tiles, then every player's flowers in player order;
- ``2 t``: the bot drew ``t``;
- ``3 p DRAW`` / ``3 p BUHUA h`` / ``3 p PLAY t`` / ``3 p PENG t`` / ``3 p CHI mid t`` /
  ``3 p GANG`` / ``3 p BUGANG t``: what player ``p`` did (a ``PENG`` or ``CHI`` claims the
  last discard and discards ``t``; ``CHI`` names the chow's middle tile; ``GANG`` is a
  kong on the last discard, or after the player's own draw a concealed kong whose tile
  stays hidden).

Responses: ``PASS``, ``PLAY t``, ``GANG t`` (concealed, after a draw), ``BUGANG t``, ``HU``
after the bot's draw; ``PASS``, ``HU``, ``PENG t``, ``CHI mid t``, ``GANG`` after another
player's discard (``t`` the tile discarded after the claim); ``PASS`` or ``HU`` (robbing)
after another player's ``BUGANG``.

A bot in keep-running mode ends each answer with the line :data:`KEEP_RUNNING` and waits
for the next request.
"""

from __future__ import annotations

from dataclasses import dataclass

from .._untrusted import shown
from ..errors import ProtocolError

__all__ = [
    "KEEP_RUNNING",
    "Deal",
    "Draw",
    "Move",
    "Position",
    "ProtocolError",
    "Response",
    "format_request",
    "format_response",
    "parse_request",
    "parse_response",
    "tile_code",
    "tile_name",
]

#: The line a keep-running bot prints after each answer.
KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"

_PREFIX = "WBT"
MOVES = ("DRAW", "BUHUA", "PLAY", "PENG", "CHI", "GANG", "BUGANG")
ANSWERS = ("PASS", "PLAY", "GANG", "BUGANG", "HU", "PENG", "CHI")


def tile_name(code: int) -> str:
    """Botzone's name of a majiang tile code (0-41): ``W1`` … ``J3``, ``H1`` … ``H8``."""
    if not isinstance(code, int) or not 0 <= code < 42:
        raise ProtocolError(f"tile code {code!r} is not 0-41")
    if code < 27:
        return f"{_PREFIX[code // 9]}{code % 9 + 1}"
    if code < 31:
        return f"F{code - 26}"
    if code < 34:
        return f"J{code - 30}"
    return f"H{code - 33}"


def tile_code(name: str) -> int:
    """The majiang tile code of a Botzone tile name (``ProtocolError`` if malformed)."""
    if len(name) == 2 and name[1].isdigit():
        k, r = name[0], int(name[1])
        if k in _PREFIX and 1 <= r <= 9:
            return _PREFIX.index(k) * 9 + r - 1
        if k == "F" and 1 <= r <= 4:
            return 26 + r
        if k == "J" and 1 <= r <= 3:
            return 30 + r
        if k == "H" and 1 <= r <= 8:
            return 33 + r
    raise ProtocolError(f"{shown(name, 20)} is not a Botzone tile name")


@dataclass(frozen=True)
class Position:
    """Request 0: the bot's player id and the prevalent wind (quan)."""

    me: int
    quan: int


@dataclass(frozen=True)
class Deal:
    """Request 1: flower counts per player, the bot's 13 tiles, every player's flowers."""

    flower_counts: tuple[int, int, int, int]
    hand: tuple[int, ...]
    flowers: tuple[int, ...] = ()


@dataclass(frozen=True)
class Draw:
    """Request 2: the bot drew ``tile``."""

    tile: int


@dataclass(frozen=True)
class Move:
    """Request 3: player ``player`` did ``op`` with ``tiles`` (see the module docs)."""

    player: int
    op: str
    tiles: tuple[int, ...] = ()


Request = Position | Deal | Draw | Move

_MOVE_ARITY = {"DRAW": 0, "GANG": 0, "BUHUA": 1, "PLAY": 1, "PENG": 1, "BUGANG": 1, "CHI": 2}


def _player(text: str) -> int:
    if text not in ("0", "1", "2", "3"):
        raise ProtocolError(f"{shown(text, 20)} is not a player 0-3")
    return int(text)


def _chow_middle(tile: int, line: str) -> int:
    """The middle tile of a chow: a suited tile 2-8 (``ProtocolError`` otherwise)."""
    if tile >= 27 or tile % 9 in (0, 8):
        raise ProtocolError(
            f"{shown(line)}: {tile_name(tile)} cannot be the middle of a chow "
            "(a suited tile 2-8 is)"
        )
    return tile


def parse_request(line: str) -> Request:
    """One request line as a :class:`Position`, :class:`Deal`, :class:`Draw` or
    :class:`Move` (``ProtocolError`` if it is not one)."""
    w = line.split()
    if not w:
        raise ProtocolError("empty request")
    kind, rest = w[0], w[1:]
    if kind == "0" and len(rest) == 2:
        return Position(_player(rest[0]), _player(rest[1]))
    if kind == "1" and len(rest) >= 17:
        counts = tuple(int(x) if x.isdigit() else -1 for x in rest[:4])
        if any(c < 0 or c > 8 for c in counts):
            raise ProtocolError(f"bad flower counts in {shown(line)}")
        hand = tuple(tile_code(x) for x in rest[4:17])
        flowers = tuple(tile_code(x) for x in rest[17:])
        bad = any(f < 34 for f in flowers) or any(t >= 34 for t in hand)
        if bad or len(flowers) != sum(counts):
            raise ProtocolError(f"the deal {shown(line)} does not add up")
        over = next((t for t in hand if hand.count(t) > 4), None)
        if over is not None:
            raise ProtocolError(f"the deal holds a fifth {tile_name(over)}: {shown(line)}")
        if len(set(flowers)) != len(flowers):
            raise ProtocolError(f"the deal gives a flower twice: {shown(line)}")
        return Deal(counts, hand, flowers)  # type: ignore[arg-type]
    if kind == "2" and len(rest) == 1:
        return Draw(tile_code(rest[0]))
    if kind == "3" and len(rest) >= 2:
        op = rest[1]
        if op in _MOVE_ARITY and len(rest) == 2 + _MOVE_ARITY[op]:
            tiles = tuple(tile_code(x) for x in rest[2:])
            if op == "CHI":
                _chow_middle(tiles[0], line)
            return Move(_player(rest[0]), op, tiles)
    raise ProtocolError(f"{shown(line)} is not a Botzone mahjong request")


def format_request(request: Request) -> str:
    """The request line of a parsed request (the inverse of :func:`parse_request`)."""
    if isinstance(request, Position):
        return f"0 {request.me} {request.quan}"
    if isinstance(request, Deal):
        parts = ["1", *map(str, request.flower_counts)]
        parts += [tile_name(t) for t in request.hand]
        parts += [tile_name(t) for t in request.flowers]
        return " ".join(parts)
    if isinstance(request, Draw):
        return f"2 {tile_name(request.tile)}"
    if isinstance(request, Move):
        return " ".join(["3", str(request.player), request.op, *map(tile_name, request.tiles)])
    raise ProtocolError(f"{request!r} is not a request")


@dataclass(frozen=True)
class Response:
    """One answer: ``op`` (``PASS``, ``PLAY``, ``PENG``, ``CHI``, ``GANG``, ``BUGANG``,
    ``HU``) and its tiles (``CHI``: the middle tile, then the discard)."""

    op: str
    tiles: tuple[int, ...] = ()


_ANSWER_ARITY = {
    "PASS": (0,),
    "HU": (0,),
    "PLAY": (1,),
    "PENG": (1,),
    "BUGANG": (1,),
    "GANG": (0, 1),
    "CHI": (2,),
}


def parse_response(line: str) -> Response:
    """One response line as a :class:`Response` (``ProtocolError`` if malformed)."""
    w = line.split()
    if not w or w[0] not in _ANSWER_ARITY or len(w) - 1 not in _ANSWER_ARITY[w[0]]:
        raise ProtocolError(f"{shown(line)} is not a Botzone mahjong response")
    tiles = tuple(tile_code(x) for x in w[1:])
    if w[0] == "CHI":
        _chow_middle(tiles[0], line)
    return Response(w[0], tiles)


def format_response(response: Response) -> str:
    """The response line (the inverse of :func:`parse_response`)."""
    if response.op not in _ANSWER_ARITY or len(response.tiles) not in _ANSWER_ARITY[response.op]:
        raise ProtocolError(f"{response!r} is not a Botzone mahjong response")
    return " ".join([response.op, *map(tile_name, response.tiles)])
