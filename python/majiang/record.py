"""Match records: JSON lines that prove themselves, loaded line by line, replayed through
the engine.

Format (version 2)
------------------

A record is UTF-8 text, one JSON object per line, every line ending in ``\\n``:

1. The **header**::

       {"format": "majiang-record", "hands": 16, "options": {...}, "players": [4 names],
        "rules": "gb", "seed": S, "type": "header", "version": 2}

   ``rules`` is a rule set name and ``options`` its options (``RuleSet(rules, **options)``
   must accept them); ``seed`` is the match seed (``0 <= seed < 2**64``); ``hands`` the
   length of the match (1-65535); ``players`` four names (at most 200 characters each),
   in seat order.

2. Each **hand** ``i`` (0, 1, 2, ... with no gap) is a group of lines:

   - ``{"type": "hand", "hand": i, "seed": ..., "dealer": 0-3, "prevalent_wind": 0-3,
     "scores": [4 ints]}``: the hand's wall seed (the match derives it from its seed and
     ``i``), the dealer's seat, the prevalent wind and the scores before the hand (hand 0
     starts at ``[0, 0, 0, 0]``, hand ``i`` where hand ``i - 1`` ended);
   - one line per engine event, each with ``"hand": i`` and ``"type"``: ``dice`` (``dice``,
     ``break_seat``, ``break_stack``), ``deal`` (``seat``, ``tiles``), ``draw`` (``seat``,
     ``tile``, ``tail``), ``flower`` (``seat``, ``tile``), ``discard`` (``seat``, ``tile``,
     ``ready``), ``chow`` (``seat``, ``from``, ``tile``, ``low``), ``pung`` and ``kong``
     (``seat``, ``from``, ``tile``), ``concealed_kong`` and ``added_kong`` (``seat``,
     ``tile``), ``win`` (``seat``, ``from``, ``tile``, ``how``: ``self_drawn``,
     ``discard`` or ``robbed_kong``, ``fan``), ``penalty`` (``seat``, ``each``),
     ``exhaustive_draw``, and ``bao`` (huainan: ``indicator`` and the wild ``tile``
     turned up ``throw`` stacks from the tail);
   - ``{"type": "result", "hand": i, "exhaustive": bool, "wins": [...], "deltas": [4],
     "penalties": [4], "scores": [4]}``: the winners with their fans (or Huainan form
     and multipliers), the payments, and the scores after the hand (``scores`` before the
     hand plus ``deltas``).

3. The **trailer** ``{"type": "match_end", "complete": bool, "hands_played": n,
   "final_scores": [4], "digest": "sha256:<hex>"}``. ``complete`` is true when every hand
   of the match was played; a match that ended early (a bot failed, the player quit,
   Ctrl-C) says ``false``. ``digest`` is the SHA-256 of the bytes of every line before
   the trailer (the header and the hand lines, each with its ``\\n``); it catches damage,
   not forgery: whoever edits a record can recompute it, and only :func:`replay_record`
   proves that the engine plays the hands as recorded. A record without a trailer is the
   record of a match still being written (or whose writer was killed): it loads, as an
   unfinished match, when it stops at the end of a hand.

   A record written with a key (``save(path, key=...)``, ``RecordWriter(..., key=...)``)
   has a fifth trailer field, ``"signature": "hmac-sha256:<hex>"``: the HMAC-SHA256, with
   that key, of the label ``majiang-record`` and a zero byte, then every line before the
   trailer (each with its ``\\n``), then the trailer's other fields as sorted, compact
   JSON (see :mod:`majiang.signing`). Whoever does not hold the key cannot make it.

Tiles are codes (0-33, flowers 34-41), seats 0-3. Version 1 records (no ``complete``,
``hands_played`` or ``digest`` in the trailer) are read too.

Hands dealt from given walls (version 3)
----------------------------------------

A match played elsewhere (a Botzone judge log read by :func:`majiang.botzone.read_log`)
was not shuffled from a seed. Its record is version 3: every hand line also carries
``"wall"``, the wall's tiles in majiang's order (:attr:`majiang.Round.wall`: 136 codes, or
144 with flowers, each tile as often as the rule set's wall holds it), and the hand is
dealt from that wall (the seed then only throws the dice); such a hand gives its own
dealer and prevalent wind. A version 3 record names every hand's wall, a version 2 record
none; majiang's own matches are written as version 2.

Loading
-------

:meth:`MatchRecord.load` reads a file line by line (bytes, at most
:data:`MAX_LINE_BYTES` per line and :data:`MAX_RECORD_BYTES` per file; both can be raised
per call) and checks every line against the schema above and the lines against each
other: types (an integer is an integer, not a bool, float or string), ranges, unknown or
missing fields, the rules and options, hand indices, each hand's seed (derived from the
match seed by :class:`Match`), the score chain, the trailer's counts, scores and digest.
Any problem raises :class:`RecordError` (a ``ValueError``) naming the file, the line and
the problem. With ``key=`` the record must carry a signature made with that key. What the
load proved is kept on the record: :attr:`MatchRecord.digest` (``"checked"``, ``"none"``
for a trailer without one, ``"no trailer"``) and :attr:`MatchRecord.signature`
(``"none"``, ``"not checked"``, ``"checked"``).

:func:`replay_record` then re-plays each hand through a :class:`Match` built from the
header (so each hand's seed, dealer and prevalent wind are the match's) taking every
decision from the recorded events, and checks that the engine produces exactly the
recorded events, results and scores (:class:`ReplayMismatchError`, naming the line).
For a hand dealt from a wall the record gives (version 3), the replay proves that the
play follows from that wall, not that the wall came from a shuffle of the seed;
``replay_record(rec, require_seed=True)`` (``majiang replay --verify --require-seed``)
also requires every such wall to be the one the hand's seed shuffles.

Writing
-------

:meth:`MatchRecord.save` writes to a temporary file in the target's directory and
renames it over the target (a reader sees the old record or the new one, never half of
one). :class:`RecordWriter` writes a record while the match is played: the header (also
through a temporary name), then each finished hand appended, flushed and synced to disk,
then the trailer.
"""

from __future__ import annotations

import builtins
import hashlib
import hmac
import json
import os
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from . import _core, signing
from ._core import Action, Match, Round, RuleSet
from ._files import AtomicFile as _AtomicFile
from .errors import InvalidArgumentError, InvalidTypeError, RecordError, ReplayMismatchError

__all__ = [
    "FORMAT",
    "MAX_LINE_BYTES",
    "MAX_RECORD_BYTES",
    "VERSION",
    "HandRecord",
    "MatchRecord",
    "RecordError",
    "RecordWriter",
    "ReplayMismatchError",
    "check_record_path",
    "check_wall",
    "hand_round",
    "replay_hand",
    "replay_moves",
    "replay_record",
    "round_from_wall",
]

FORMAT = "majiang-record"
VERSION = 2
#: What a record's signature is made over (see :mod:`majiang.signing`).
SIGNED_AS = "majiang-record"
#: The version of a record whose hands name their walls (see the module documentation).
WALLS_VERSION = 3
#: Record versions this module reads.
READABLE_VERSIONS = (1, 2, 3)
#: The longest line (bytes, without its ``\n``) a record may have by default. A 16-hand
#: match has lines of a few hundred bytes; the limit stops a damaged file from being
#: parsed as one enormous object.
MAX_LINE_BYTES = 1 << 16
#: The largest record file read by default (128 MiB, some thousands of hands).
MAX_RECORD_BYTES = 1 << 27

_I32 = (-(2**31), 2**31 - 1)
_U64 = (0, 2**64 - 1)
_MAX_NAME = 200
_TILE = (0, 41)
_SEAT = (0, 3)
_SMALL = (0, 1 << 20)


@dataclass
class HandRecord:
    """One hand of a match.

    ``events`` are the engine's events as dicts (full information); ``result`` is the
    engine's result dict (``exhaustive``, ``deltas``, ``penalties``, ``wins`` with fans).
    ``line`` is the line of the hand's first line in the file it was loaded from.
    """

    index: int
    seed: int
    dealer: int
    prevalent_wind: int
    scores_before: list[int]
    result: dict[str, Any]
    scores_after: list[int]
    events_json: list[str] = field(default_factory=list, repr=False)
    _events: list[dict[str, Any]] | None = field(default=None, repr=False, compare=False)
    line: int | None = field(default=None, repr=False, compare=False)
    #: The wall the hand was dealt from, in majiang's order (records of version 3), or
    #: None when it was shuffled from ``seed``.
    wall: list[int] | None = field(default=None, repr=False)

    @property
    def events(self) -> list[dict[str, Any]]:
        """The events of the hand as dicts, in order."""
        if self._events is None:
            self._events = [json.loads(s) for s in self.events_json]
        return self._events

    @property
    def winners(self) -> list[int]:
        """The winning seats (empty after an exhaustive draw)."""
        return [w["seat"] for w in self.result["wins"]]

    @property
    def deltas(self) -> list[int]:
        """Each seat's change of score in this hand."""
        return list(self.result["deltas"])

    def lines(self) -> list[str]:
        """The hand's lines in the record (without line breaks)."""
        start = {
            "type": "hand",
            "hand": self.index,
            "seed": self.seed,
            "dealer": self.dealer,
            "prevalent_wind": self.prevalent_wind,
            "scores": self.scores_before,
        }
        if self.wall is not None:
            start["wall"] = list(self.wall)
        out = [json.dumps(start, sort_keys=True)]
        prefix = f'{{"hand":{self.index},'
        out.extend(prefix + e[1:] for e in self.events_json)
        end = {"type": "result", "hand": self.index, "scores": self.scores_after, **self.result}
        out.append(json.dumps(end, ensure_ascii=False, sort_keys=True))
        return out


@dataclass
class MatchRecord:
    """A whole match, or the hands played so far: the rules, the seed, the players and
    every finished hand. ``final_scores`` are the scores after the last hand recorded.
    ``walls``: every hand names the wall it was dealt from (a version 3 record)."""

    rules: str
    options: dict[str, Any]
    seed: int
    n_hands: int
    players: list[str]
    hands: list[HandRecord] = field(default_factory=list)
    final_scores: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    walls: bool = False
    #: What loading proved of the record's bytes: ``"checked"`` (the trailer's digest
    #: matched), ``"none"`` (a trailer without a digest, version 1), ``"no trailer"`` (an
    #: unfinished record: nothing checked its bytes), or ``"not loaded"`` (built in
    #: memory).
    digest: str = field(default="not loaded", compare=False, repr=False)
    #: The record's signature: ``"none"``, ``"not checked"`` (signed, loaded without a
    #: key) or ``"checked"`` (the key given verified it).
    signature: str = field(default="none", compare=False, repr=False)

    @property
    def complete(self) -> bool:
        """True when every hand of the match is in the record."""
        return len(self.hands) == self.n_hands

    def rule_set(self) -> RuleSet:
        """The :class:`~majiang.RuleSet` the match was played with."""
        return RuleSet(self.rules, **self.options)

    def header_line(self) -> str:
        """The header line (without its line break)."""
        header = {
            "type": "header",
            "format": FORMAT,
            "version": WALLS_VERSION if self.walls else VERSION,
            "rules": self.rules,
            "options": self.options,
            "seed": self.seed,
            "hands": self.n_hands,
            "players": self.players,
        }
        return json.dumps(header, ensure_ascii=False, sort_keys=True)

    def to_json(self, *, key: bytes | str | None = None) -> str:
        """The record as JSON lines (see the module documentation), signed with ``key``
        when given."""
        mac = None if key is None else signing.mac(key, SIGNED_AS)
        h = hashlib.sha256()
        lines = [self.header_line()]
        for hand in self.hands:
            lines.extend(hand.lines())
        for line in lines:
            raw = line.encode("utf-8") + b"\n"
            h.update(raw)
            if mac is not None:
                mac.update(raw)
        trailer = {
            "type": "match_end",
            "complete": self.complete,
            "hands_played": len(self.hands),
            "final_scores": self.final_scores,
            "digest": "sha256:" + h.hexdigest(),
        }
        if mac is not None:
            trailer["signature"] = _trailer_signature(mac, trailer)
        lines.append(json.dumps(trailer, sort_keys=True))
        return "\n".join(lines) + "\n"

    def save(self, path: str | os.PathLike[str], *, key: bytes | str | None = None) -> str:
        """Writes the record to `path` through a temporary file in the same directory
        renamed over it (signed with ``key`` when given); returns the path written
        (absolute)."""
        target = check_record_path(path)
        text = self.to_json(key=key)
        with _AtomicFile(target) as f:
            f.write(text.encode("utf-8"))
        return target

    @classmethod
    def from_json(
        cls,
        text: str | bytes,
        *,
        source: str | None = None,
        max_bytes: int = MAX_RECORD_BYTES,
        max_line_bytes: int = MAX_LINE_BYTES,
        key: bytes | str | None = None,
    ) -> MatchRecord:
        """Loads a record from its text; raises :class:`RecordError` naming the line and
        the problem when it is not a valid record (see the module documentation), or,
        with ``key``, when it is not signed with that key."""
        if isinstance(text, str):
            data = text.encode("utf-8", "surrogatepass")
        elif isinstance(text, bytes | bytearray | memoryview):
            data = bytes(text)
        else:
            raise InvalidTypeError(f"a record is text or bytes, not {type(text).__name__}")
        if len(data) > max_bytes:
            raise RecordError(_too_big(max_bytes), source=source)
        return _parse(_split(data, max_line_bytes, source), source, key)

    @classmethod
    def load(
        cls,
        path: str | os.PathLike[str],
        *,
        max_bytes: int = MAX_RECORD_BYTES,
        max_line_bytes: int = MAX_LINE_BYTES,
        key: bytes | str | None = None,
    ) -> MatchRecord:
        """Loads a record file line by line (memory grows with the hands, not with a
        copy of the whole text). Raises :class:`RecordError` naming the file, the line
        and the problem (with ``key``: also a record not signed with that key);
        ``OSError`` when the file cannot be read."""
        source = os.fspath(path)
        with open(source, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size > max_bytes:
                raise RecordError(_too_big(max_bytes), source=source)
            return _parse(_read_lines(f, max_bytes, max_line_bytes, source), source, key)

    def replay(self, *, require_seed: bool = False) -> None:
        """Re-plays every hand through the engine; raises
        :class:`ReplayMismatchError` at the first difference (see :func:`replay_record`
        for ``require_seed``)."""
        replay_record(self, require_seed=require_seed)


# ---- reading ----------------------------------------------------------------------------


def _too_big(limit: int) -> str:
    return (
        f"the record is larger than the limit of {limit:,} bytes "
        "(a match record is far smaller: is this a record?)"
    )


def _check_line(raw: bytes, no: int, max_line: int, source: str | None, last: bool) -> None:
    body = len(raw) - (1 if raw.endswith(b"\n") else 0)
    if body > max_line:
        raise RecordError(
            f"the line is longer than {max_line:,} bytes, the limit of a record line "
            "(a match record's lines are far shorter: is this a record?)",
            source=source,
            line=no,
        )
    if not raw.endswith(b"\n") and last:
        raise RecordError("the record is cut in the middle of this line", source=source, line=no)


def _read_lines(
    f: IO[bytes], max_bytes: int, max_line: int, source: str
) -> Iterator[tuple[int, bytes]]:
    total = 0
    no = 0
    while True:
        raw = f.readline(max_line + 2)
        if not raw:
            return
        no += 1
        total += len(raw)
        if total > max_bytes:
            raise RecordError(_too_big(max_bytes), source=source, line=no)
        _check_line(raw, no, max_line, source, last=not raw.endswith(b"\n"))
        yield no, raw


def _split(data: bytes, max_line: int, source: str | None) -> Iterator[tuple[int, bytes]]:
    pos = 0
    no = 0
    n = len(data)
    while pos < n:
        end = data.find(b"\n", pos)
        no += 1
        raw = data[pos:] if end < 0 else data[pos : end + 1]
        _check_line(raw, no, max_line, source, last=end < 0)
        yield no, raw
        pos = n if end < 0 else end + 1


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for k, _ in pairs:
            if k in seen:
                raise InvalidArgumentError(f"the key {k!r} appears twice in one object")
            seen.add(k)
    return out


def _no_constant(name: str) -> Any:
    raise InvalidArgumentError(f"{name} is not a JSON number")


# One decoder for every line: duplicate keys and NaN/Infinity are errors.
_DECODER = json.JSONDecoder(object_pairs_hook=_no_duplicates, parse_constant=_no_constant)


def _describe(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return f"the boolean {str(v).lower()}"
    if isinstance(v, int | float):
        return f"the number {v!r}"
    if isinstance(v, str):
        return f"the string {v[:40]!r}"
    if isinstance(v, list):
        return f"a list of {len(v)}"
    return "an object"


class _Line:
    """One parsed line and its checks; every failure names the line."""

    def __init__(self, obj: dict[str, Any], no: int, source: str | None, what: str):
        self.obj = obj
        self.no = no
        self.source = source
        self.what = what

    def error(self, problem: str) -> RecordError:
        return RecordError(problem, source=self.source, line=self.no)

    def fields(self, required: Iterable[str], optional: Iterable[str] = ()) -> None:
        required = set(required)
        missing = sorted(required - self.obj.keys())
        if missing:
            raise self.error(f"the {self.what} has no {', '.join(map(repr, missing))}")
        extra = sorted(self.obj.keys() - required - set(optional))
        if extra:
            raise self.error(f"the {self.what} has unknown fields {', '.join(map(repr, extra))}")

    def int(self, key: str, bounds: tuple[int, int], obj: dict[str, Any] | None = None) -> int:
        return _int(self, (obj if obj is not None else self.obj)[key], key, bounds)

    def bool(self, key: str) -> bool:
        v = self.obj[key]
        if type(v) is not bool:
            raise self.error(f"{key!r} must be true or false, not {_describe(v)}")
        return v

    # Below ``int``, ``bool`` and ``str`` name the methods above: the types are spelled
    # through ``builtins``.
    def str(self, key: builtins.str, limit: builtins.int = _MAX_NAME) -> builtins.str:
        v = self.obj[key]
        if type(v) is not str:
            raise self.error(f"{key!r} must be a string, not {_describe(v)}")
        if len(v) > limit:
            raise self.error(f"{key!r} is longer than {limit} characters")
        return v

    def ints(
        self,
        key: builtins.str,
        bounds: tuple[builtins.int, builtins.int],
        n: builtins.int | None = None,
        v: Any = None,
    ) -> list[builtins.int]:
        v = self.obj[key] if v is None else v
        if type(v) is not list:
            raise self.error(f"{key!r} must be a list, not {_describe(v)}")
        if n is not None and len(v) != n:
            raise self.error(f"{key!r} must have {n} entries, not {len(v)}")
        return [_int(self, x, key, bounds) for x in v]


def _int(line: _Line, v: Any, key: str, bounds: tuple[int, int]) -> int:
    if type(v) is not int:
        raise line.error(f"{key!r} must be an integer, not {_describe(v)}")
    lo, hi = bounds
    if not lo <= v <= hi:
        raise line.error(f"{key!r} is {v}, outside {lo}..{hi}")
    return v


# The event schema, declared once in Rust (rust/round/events.rs): per event type, its
# fields beyond "type" (and the record's "hand"), each named by its field type, and what
# each field type holds. Record lines are checked against it.
_EVENTS: dict[str, dict[str, str]] = _core.event_schema()
_FIELD_TYPES: dict[str, dict[str, Any]] = _core.event_field_types()
_EVENT_KEYS = {kind: frozenset(["type", "hand", *spec]) for kind, spec in _EVENTS.items()}


def _is_int_in(lo: int, hi: int) -> Callable[[Any], bool]:
    return lambda v: type(v) is int and lo <= v <= hi


def _quick_check(t: dict[str, Any]) -> Callable[[Any], bool]:
    """A one-pass test of a field of type ``t`` (an entry of ``event_field_types``) for
    the well-formed case; in a record every tile is known, so no value is null."""
    value = t["value"]
    if value == "int":
        return _is_int_in(t["min"], t["max"])
    if value == "ints":
        lo, hi, lengths = t["min"], t["max"], frozenset(t["lengths"])
        return lambda v: (
            type(v) is list
            and len(v) in lengths
            and all(type(x) is int and lo <= x <= hi for x in v)
        )
    if value == "bool":
        return lambda v: type(v) is bool
    names = frozenset(t["names"])
    return lambda v: type(v) is str and v in names


_FAST: dict[str, Callable[[Any], bool]] = {
    name: _quick_check(t) for name, t in _FIELD_TYPES.items()
}
# Per event type: (field, quick check) for the well-formed case.
_EVENT_CHECKS = {
    kind: [(key, _FAST[t]) for key, t in spec.items()] for kind, spec in _EVENTS.items()
}


def _check_event(line: _Line, kind: str) -> None:
    spec = _EVENTS[kind]
    line.fields(["type", "hand", *spec])
    for key, name in spec.items():
        t = _FIELD_TYPES[name]
        value = t["value"]
        if value == "int":
            line.int(key, (t["min"], t["max"]))
        elif value == "ints":
            v = line.ints(key, (t["min"], t["max"]))
            if len(v) not in t["lengths"]:
                lengths = t["lengths"]
                allowed = (
                    f"at most {lengths[-1]}"
                    if lengths == list(range(len(lengths)))
                    else " or ".join(map(str, lengths))
                )
                raise line.error(f"{key!r} has {len(v)} entries, not {allowed}")
        elif value == "bool":
            line.bool(key)
        elif line.obj[key] not in t["names"]:
            raise line.error(f"{key!r} must be one of {', '.join(t['names'])}")


def _check_win(line: _Line, w: Any, i: int) -> None:
    what = f"win {i} of the result"
    if type(w) is not dict:
        raise line.error(f"{what} must be an object, not {_describe(w)}")
    sub = _Line(w, line.no, line.source, what)
    sub.fields(["seat", "hand", "melds"], optional=set(w) - {"seat", "hand", "melds"})
    sub.int("seat", _SEAT)
    sub.ints("hand", _TILE)
    melds = w["melds"]
    if type(melds) is not list or not all(
        type(m) is list and len(m) == 2 and all(type(x) is str for x in m) for m in melds
    ):
        raise line.error(f"'melds' of {what} must be a list of [kind, tiles] strings")
    if "form" in w:
        sub.fields(
            ["seat", "hand", "melds", "form", "form_zh", "multipliers", "value"],
            optional=set(w),
        )
        sub.str("form")
        sub.str("form_zh")
        sub.int("value", _I32)
        mults = w["multipliers"]
        if type(mults) is not list or not all(
            type(m) is list and len(m) == 2 and type(m[0]) is str and type(m[1]) is int
            for m in mults
        ):
            raise line.error(f"'multipliers' of {what} must be a list of [name, factor]")
        return
    sub.fields(["seat", "hand", "melds", "fans", "fan_total"], optional=set(w))
    sub.int("fan_total", _I32)
    fans = w["fans"]
    if type(fans) is not list:
        raise line.error(f"'fans' of {what} must be a list, not {_describe(fans)}")
    for j, f in enumerate(fans):
        if type(f) is not dict:
            raise line.error(f"fan {j} of {what} must be an object, not {_describe(f)}")
        fan = _Line(f, line.no, line.source, f"fan {j} of {what}")
        fan.fields(["name", "name_zh", "points", "count"], optional=set(f))
        fan.str("name")
        fan.str("name_zh")
        fan.int("points", _I32)
        fan.int("count", _SMALL)


def _own_options_v1(rules: Any, options: dict[str, Any]) -> dict[str, Any]:
    """A version 1 header lists the options of every rule set; only the rule set's own
    ones ever changed play, so the others are dropped (version 2 writes only its own)."""
    try:
        own = RuleSet(rules).options()
    except (ValueError, TypeError):
        return options  # the name is at fault, and RuleSet(rules, ...) below says so
    return {k: v for k, v in options.items() if k in own}


class _Parser:
    """Checks lines one by one and builds the record."""

    def __init__(self, source: str | None, key: bytes | str | None = None):
        self.source = source
        self.key = key
        self.mac = None if key is None else signing.mac(key, SIGNED_AS)
        self.rec: MatchRecord | None = None
        self.version = VERSION
        self.current: HandRecord | None = None
        self.scores = [0, 0, 0, 0]
        self.ended = False
        self.digest = hashlib.sha256()
        self.last = 0
        self.match: Match | None = None

    def error(self, problem: str, no: int | None = None) -> RecordError:
        return RecordError(problem, source=self.source, line=no)

    def line(self, no: int, raw: bytes) -> None:
        self.last = no
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise self.error(f"the line is not UTF-8 text (byte {e.start + 1})", no) from None
        if not text.strip():
            raise self.error("the line is empty", no)
        try:
            obj = _DECODER.decode(text)
        except RecursionError:
            raise self.error("the line's JSON is nested too deeply", no) from None
        except ValueError as e:
            raise self.error(f"the line is not valid JSON ({e})", no) from None
        if type(obj) is not dict:
            raise self.error(f"a line must be a JSON object, not {_describe(obj)}", no)
        kind = obj.get("type")
        if self.ended:
            raise self.error("a line after the match_end trailer", no)
        if self.rec is None:
            self.header(_Line(obj, no, self.source, "header"))
            self.digest.update(raw)
            if self.mac is not None:
                self.mac.update(raw)
            return
        if type(kind) is not str:
            raise self.error(f"the line's 'type' must be a string, not {_describe(kind)}", no)
        if kind == "match_end":
            self.trailer(_Line(obj, no, self.source, "match_end trailer"))
            return
        self.digest.update(raw)
        if self.mac is not None:
            self.mac.update(raw)
        if kind == "hand":
            self.hand(_Line(obj, no, self.source, "hand line"))
        elif kind == "result":
            self.result(_Line(obj, no, self.source, "result line"))
        elif kind in _EVENTS:
            if not self.fast_event(obj, kind, text):
                self.event(_Line(obj, no, self.source, f"{kind} event"), kind)
        elif kind == "header":
            raise self.error("a second header", no)
        else:
            raise self.error(f"unknown line type {kind[:40]!r}", no)

    def header(self, line: _Line) -> None:
        obj = line.obj
        if obj.get("type") != "header" or obj.get("format") != FORMAT:
            raise line.error(f"a record starts with a {FORMAT} header")
        version = obj.get("version")
        if type(version) is not int or version not in READABLE_VERSIONS:
            raise line.error(
                f"record version {_describe(version)} is not one this reads "
                f"({', '.join(map(str, READABLE_VERSIONS))})"
            )
        self.version = version
        line.fields(["type", "format", "version", "rules", "options", "seed", "hands", "players"])
        rules = line.str("rules")
        options = obj["options"]
        if type(options) is not dict:
            raise line.error(f"'options' must be an object, not {_describe(options)}")
        if version == 1:
            options = _own_options_v1(rules, options)
        try:
            rule_set = RuleSet(rules, **options)
        except (ValueError, TypeError, OverflowError) as e:
            raise line.error(f"the rules {rules!r} with these options: {e}") from None
        seed = line.int("seed", _U64)
        n_hands = line.int("hands", (1, 65535))
        # The match the header describes: it gives every hand's seed.
        try:
            self.match = Match(rule_set, seed, n_hands)
        except ValueError as e:
            raise line.error(f"the header does not describe a match: {e}") from None
        players = obj["players"]
        if type(players) is not list or len(players) != 4:
            raise line.error(f"'players' must be a list of 4 names, not {_describe(players)}")
        for i, p in enumerate(players):
            if type(p) is not str or not p or len(p) > _MAX_NAME:
                raise line.error(
                    f"player {i} must be a name of 1-{_MAX_NAME} characters, not {_describe(p)}"
                )
        self.rec = MatchRecord(
            rules=rules,
            options=options,
            seed=seed,
            n_hands=n_hands,
            players=list(players),
            walls=version == WALLS_VERSION,
        )

    def hand(self, line: _Line) -> None:
        rec = self.rec
        assert rec is not None
        if self.current is not None:
            raise line.error(f"hand {self.current.index} has no result line before this one")
        walled = self.version == WALLS_VERSION
        line.fields(
            ["type", "hand", "seed", "dealer", "prevalent_wind", "scores"],
            optional=["wall"] if walled else [],
        )
        if walled and "wall" not in line.obj:
            raise line.error(
                f"record version {WALLS_VERSION} names every hand's wall; this hand has no 'wall'"
            )
        index = line.int("hand", (0, 65535))
        expect = len(rec.hands)
        if index != expect:
            raise line.error(f"hand {index} where hand {expect} comes next")
        if index >= rec.n_hands:
            raise line.error(f"hand {index} in a match of {rec.n_hands} hands")
        before = line.ints("scores", _I32, 4)
        if before != self.scores:
            raise line.error(
                f"the scores before hand {index} are {before}, but "
                + (f"hand {index - 1} ended with {self.scores}" if index else "a match starts at 0")
            )
        seed = line.int("seed", _U64)
        assert self.match is not None
        if seed != self.match.hand_seed_at(index):
            raise line.error(
                f"hand {index} has the seed {seed}, but hand {index} of the match with seed "
                f"{rec.seed} has {self.match.hand_seed_at(index)} (a hand of another match?)"
            )
        self.current = HandRecord(
            index=index,
            seed=seed,
            dealer=line.int("dealer", _SEAT),
            prevalent_wind=line.int("prevalent_wind", _SEAT),
            scores_before=before,
            result={},
            scores_after=[],
            line=line.no,
            wall=self.wall(line) if walled else None,
        )
        rec.hands.append(self.current)

    def wall(self, line: _Line) -> list[int]:
        """The hand line's wall: the tiles of the rule set's wall, each as often as it holds
        them."""
        assert self.rec is not None
        wall = line.ints("wall", _TILE)
        want = check_wall(wall, self.rec.rule_set())
        if want:
            raise line.error(f"'wall' {want}")
        return wall

    def _in_hand(self, line: _Line) -> HandRecord:
        cur = self.current
        if cur is None:
            raise line.error(f"a {line.what} outside a hand")
        index = line.int("hand", (0, 65535)) if "hand" in line.obj else None
        if index != cur.index:
            raise line.error(f"a {line.what} of hand {index} inside hand {cur.index}")
        return cur

    def fast_event(self, obj: dict[str, Any], kind: str, text: str) -> bool:
        """Takes a well-formed event of the current hand in one pass; False sends the
        line to :meth:`event`, which names what is wrong."""
        cur = self.current
        index = obj.get("hand")
        if cur is None or type(index) is not int or index != cur.index:
            return False
        if obj.keys() != _EVENT_KEYS[kind]:
            return False
        for key, ok in _EVENT_CHECKS[kind]:
            if not ok(obj[key]):
                return False
        # The event's text minus its "hand" key: sliced from a compact line, else re-encoded.
        prefix = f'{{"hand":{cur.index},'
        body = text.rstrip("\n")
        if body.startswith(prefix) and " " not in body:
            cur.events_json.append("{" + body[len(prefix) :])
        else:
            ev = {k: v for k, v in obj.items() if k != "hand"}
            cur.events_json.append(json.dumps(ev, separators=(",", ":")))
        return True

    def event(self, line: _Line, kind: str) -> None:
        cur = self._in_hand(line)
        _check_event(line, kind)
        ev = {k: v for k, v in line.obj.items() if k != "hand"}
        cur.events_json.append(json.dumps(ev, separators=(",", ":")))

    def result(self, line: _Line) -> None:
        cur = self._in_hand(line)
        line.fields(["type", "hand", "scores", "exhaustive", "wins", "deltas", "penalties"])
        line.bool("exhaustive")
        deltas = line.ints("deltas", _I32, 4)
        line.ints("penalties", _I32, 4)
        wins = line.obj["wins"]
        if type(wins) is not list or len(wins) > 4:
            raise line.error(f"'wins' must be a list of at most 4 wins, not {_describe(wins)}")
        for i, w in enumerate(wins):
            _check_win(line, w, i)
        after = line.ints("scores", _I32, 4)
        expect = [a + b for a, b in zip(cur.scores_before, deltas, strict=True)]
        if after != expect:
            raise line.error(
                f"the scores after hand {cur.index} are {after}, but the scores before "
                f"{cur.scores_before} plus the payments {deltas} make {expect}"
            )
        cur.result = {k: v for k, v in line.obj.items() if k not in ("type", "hand", "scores")}
        cur.scores_after = after
        self.scores = after
        self.current = None

    def trailer(self, line: _Line) -> None:
        rec = self.rec
        assert rec is not None
        if self.current is not None:
            raise line.error(f"hand {self.current.index} has no result line before the trailer")
        if self.version == 1:
            line.fields(["type", "final_scores"])
        else:
            line.fields(
                ["type", "final_scores", "complete", "hands_played", "digest"],
                optional=["signature"],
            )
        final = line.ints("final_scores", _I32, 4)
        if final != self.scores:
            raise line.error(
                f"the final scores {final} are not the scores after the last hand {self.scores}"
            )
        if self.version >= 2:
            played = line.int("hands_played", (0, 65535))
            if played != len(rec.hands):
                raise line.error(
                    f"the trailer counts {played} hands, the record holds {len(rec.hands)}"
                )
            complete = line.bool("complete")
            if complete != rec.complete:
                raise line.error(
                    f"the trailer says complete={str(complete).lower()}, but the record holds "
                    f"{len(rec.hands)} of the match's {rec.n_hands} hands"
                )
            digest = line.str("digest", 100)
            want = "sha256:" + self.digest.hexdigest()
            if digest != want:
                raise line.error(
                    "the digest does not match the lines before the trailer "
                    "(the record was changed or damaged)"
                )
            rec.digest = "checked"
        else:
            rec.digest = "none"
        signature = line.obj.get("signature")
        if signature is not None:
            if type(signature) is not str or not signature.startswith(signing.PREFIX):
                raise line.error(f"'signature' must be {signing.PREFIX}<hex>")
            rec.signature = "not checked"
        if self.mac is not None:
            if signature is None:
                raise line.error(
                    "the record is not signed, so the key cannot vouch for it (written "
                    "without a key, or its signature was removed)"
                )
            body = {k: v for k, v in line.obj.items() if k != "signature"}
            if not hmac.compare_digest(_trailer_signature(self.mac, body), signature):
                raise line.error(
                    "the signature does not match: the record was changed after it was "
                    "signed, or signed with another key"
                )
            rec.signature = "checked"
        self.ended = True

    def finish(self) -> MatchRecord:
        if self.rec is None:
            raise self.error("the record is empty")
        if self.current is not None:
            raise self.error(
                f"the record is cut: hand {self.current.index} has no result line "
                f"(the last line is {self.last})"
            )
        if not self.ended:
            if self.mac is not None:
                raise self.error(
                    "the record has no trailer, so no signature: the key cannot vouch for it "
                    "(an unfinished match, or its trailer was removed)"
                )
            self.rec.digest = "no trailer"
        self.rec.final_scores = list(self.scores)
        return self.rec


def _trailer_signature(mac: Any, trailer: dict[str, Any]) -> str:
    """The signature of a record whose lines before the trailer ``mac`` has taken in:
    ``mac`` (a copy) then takes the trailer's fields but the signature."""
    m = mac.copy()
    body = {k: v for k, v in trailer.items() if k != "signature"}
    m.update(json.dumps(body, sort_keys=True, separators=(",", ":")).encode("utf-8"))
    return signing.PREFIX + m.hexdigest()


def _parse(
    lines: Iterable[tuple[int, bytes]], source: str | None, key: bytes | str | None = None
) -> MatchRecord:
    p = _Parser(source, key)
    for no, raw in lines:
        p.line(no, raw)
    return p.finish()


# ---- writing ----------------------------------------------------------------------------


def check_record_path(path: str | os.PathLike[str]) -> str:
    """Checks that a record can be written to `path` (its directory exists and is
    writable, the path is not a directory) before any work; returns it absolute. Raises
    ``FileNotFoundError``, ``NotADirectoryError``, ``IsADirectoryError`` or
    ``PermissionError`` naming the path."""
    p = os.path.abspath(os.fspath(path))
    if not os.path.basename(p) or os.path.isdir(p):
        raise IsADirectoryError(f"{p} is a directory, not a record file")
    d = os.path.dirname(p)
    if not os.path.exists(d):
        raise FileNotFoundError(f"the directory {d} of the record does not exist")
    if not os.path.isdir(d):
        raise NotADirectoryError(f"{d} (where the record would go) is not a directory")
    if not os.access(d, os.W_OK | os.X_OK):
        raise PermissionError(f"the directory {d} is not writable")
    return p


class RecordWriter:
    """Writes a record to disk as the match is played.

    ``RecordWriter(path, record)`` checks the path, writes the header and the hands
    already in `record` to a temporary file in the same directory and renames it to
    `path`; :meth:`add_hand` appends a finished hand (flushed and synced before it
    returns); :meth:`close` appends the trailer (``complete`` says whether every hand was
    played). Each append is all or nothing: Ctrl-C is held back while it is written
    (:class:`hold_sigint`), and a failed write is cut back to the previous hand. A writer
    killed between hands leaves a record of the finished hands that
    :meth:`MatchRecord.load` reads as an unfinished match.
    """

    def __init__(
        self, path: str | os.PathLike[str], record: MatchRecord, *, key: bytes | str | None = None
    ):
        self.path = check_record_path(path)
        self.record = record
        self._mac = None if key is None else signing.mac(key, SIGNED_AS)
        self._digest = hashlib.sha256()
        self._hands = len(record.hands)
        self._scores = list(record.hands[-1].scores_after) if record.hands else [0, 0, 0, 0]
        lines = [record.header_line()]
        for h in record.hands:
            lines.extend(h.lines())
        data = "".join(line + "\n" for line in lines).encode("utf-8")
        atomic = _AtomicFile(self.path, keep_open=True)
        with atomic as f:
            f.write(data)
        self._digest.update(data)
        if self._mac is not None:
            self._mac.update(data)
        self._file: IO[bytes] | None = atomic.file
        self._size = len(data)

    @property
    def closed(self) -> bool:
        """True after :meth:`close`."""
        return self._file is None

    @property
    def hands_written(self) -> int:
        """Hands in the file."""
        return self._hands

    def _append(self, data: bytes) -> None:
        """Writes `data` whole or not at all (call with SIGINT held)."""
        f = self._file
        if f is None:
            raise InvalidArgumentError(f"the record {self.path} is closed")
        try:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        except BaseException:
            try:
                f.seek(self._size)
                f.truncate()
                f.flush()
            except OSError:
                pass
            raise
        self._size += len(data)

    def add_hand(self, hand: HandRecord) -> None:
        """Appends a finished hand (the next one)."""
        if hand.index != self._hands:
            raise InvalidArgumentError(f"hand {hand.index} where hand {self._hands} comes next")
        if (hand.wall is not None) != self.record.walls:
            raise InvalidArgumentError(
                "a record's hands all name their wall (MatchRecord.walls) or none does"
            )
        data = "".join(line + "\n" for line in hand.lines()).encode("utf-8")
        with hold_sigint():
            self._append(data)
            self._digest.update(data)
            if self._mac is not None:
                self._mac.update(data)
            self._hands += 1
            self._scores = list(hand.scores_after)

    def close(self) -> None:
        """Appends the trailer (for the hands written) and closes the file."""
        if self._file is None:
            return
        trailer = {
            "type": "match_end",
            "complete": self._hands == self.record.n_hands,
            "hands_played": self._hands,
            "final_scores": self._scores,
            "digest": "sha256:" + self._digest.hexdigest(),
        }
        if self._mac is not None:
            trailer["signature"] = _trailer_signature(self._mac, trailer)
        try:
            with hold_sigint():
                self._append((json.dumps(trailer, sort_keys=True) + "\n").encode("utf-8"))
        finally:
            self._file.close()
            self._file = None

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class hold_sigint:
    """``with hold_sigint(): ...`` holds Ctrl-C back (in the main thread, by a SIGINT
    handler that takes note) so that it cannot cut a record's update in half; a Ctrl-C
    pressed meanwhile is passed to the previous handler when the block ends (by default:
    ``KeyboardInterrupt``). Elsewhere it does nothing."""

    def __enter__(self) -> hold_sigint:
        self.caught = False
        self.old: Any = None
        if threading.current_thread() is threading.main_thread():
            old = signal.getsignal(signal.SIGINT)
            if old is not None:
                signal.signal(signal.SIGINT, self._note)
                self.old = old
        return self

    def _note(self, signum: int, frame: Any) -> None:
        self.caught = True

    def __exit__(self, *exc: Any) -> None:
        old = self.old
        if old is None:
            return
        signal.signal(signal.SIGINT, old)
        if not self.caught:
            return
        if callable(old):
            old(signal.SIGINT, None)
        elif old == signal.SIG_DFL:
            os.kill(os.getpid(), signal.SIGINT)


# ---- replay -----------------------------------------------------------------------------


def _decision(r: Round, seat: int, nxt: dict[str, Any], wins: set[int], where: str) -> Action:
    """The action `seat` must have taken for the engine to produce the recorded `nxt`."""
    kind = nxt.get("type")
    if r.phase == "turn":
        if kind == "discard":
            return Action("ready" if nxt.get("ready") else "discard", nxt["tile"])
        if kind in ("concealed_kong", "added_kong"):
            return Action(kind, nxt["tile"])
        if kind in ("win", "penalty"):
            return Action("win")
        raise ReplayMismatchError(
            f"{where}: seat {seat} is to act on its turn but the record shows a {kind}"
        )
    if seat in wins:
        return Action("win")
    if nxt.get("seat") == seat:
        if kind == "chow":
            return Action("chow", nxt["low"])
        if kind in ("pung", "kong"):
            return Action(kind, nxt["tile"])
    return Action("pass")


def _norm(x: Any) -> Any:
    return json.loads(json.dumps(x))


def _where(hand: HandRecord, k: int | None = None) -> str:
    """Names the line of event `k` of `hand` (the hand line when None, the result line
    when `k` is past the events)."""
    parts = []
    if hand.line is not None:
        offset = 0 if k is None else 1 + min(k, len(hand.events_json))
        parts.append(f"line {hand.line + offset}")
    what = f"hand {hand.index}"
    if k is not None:
        what += f", event {k}" if k < len(hand.events_json) else ", result"
    parts.append(what)
    return " ".join([parts[0], f"({parts[1]})"]) if len(parts) == 2 else parts[0]


#: One recorded decision replayed: the seat, its action and the events it caused.
Move = tuple[int, Action, list[dict[str, Any]]]


def replay_moves(
    r: Round, hand: HandRecord, *, before: Callable[[int, Action], object] | None = None
) -> Iterator[Move]:
    """Plays the recorded decisions of ``hand`` on ``r`` (the round it was dealt, see
    :func:`hand_round`) one at a time and yields each as ``(seat, action, events)``: the
    seat, the action it took and the events it caused (as dicts; empty for a pass that
    leaves others to decide). ``before(seat, action)``, when given, is called just before
    each decision is applied, while ``r`` still shows what the seat decided on. Every
    event is checked against the record as it comes, and the result at the end; the first
    difference raises :class:`ReplayMismatchError` naming its line."""
    # Parsed here rather than through ``hand.events``, which would keep every hand's
    # parsed events alive after its replay.
    recorded = [json.loads(e) for e in hand.events_json]
    k = 0

    def play(seat: int, action: Action) -> None:
        if before is not None:
            before(seat, action)
        try:
            r.apply(seat, action)
        except ValueError as e:  # IllegalActionError
            raise ReplayMismatchError(
                f"{_where(hand, k)}: the engine refuses the recorded play: {e}"
            ) from None

    def check_new(seat: int, action: Action) -> Iterator[Move]:
        """Checks the events the move caused and yields the move with them."""
        nonlocal k
        late = False
        new: list[dict[str, Any]] = []
        while True:
            for line in r.events_json(k):
                got = json.loads(line)
                if k >= len(recorded) or got != recorded[k]:
                    want = recorded[k] if k < len(recorded) else "the end of the hand"
                    if not late and isinstance(want, dict) and want.get("type") == "penalty":
                        # penalty_mode = botzone: a false win on a discard (or an added
                        # kong) nobody could claim, where the engine moved on by itself;
                        # declared now, it takes that step back.
                        late = True
                        if before is not None:
                            before(want["seat"], Action("win"))
                        try:
                            r.apply(want["seat"], Action("win"))
                        except ValueError:
                            pass
                        else:
                            yield seat, action, new
                            seat, action, new = want["seat"], Action("win"), []
                            break
                    raise ReplayMismatchError(
                        f"{_where(hand, k)}: the engine produced {got}, the record has {want}"
                    )
                new.append(got)
                k += 1
            else:
                break
        yield seat, action, new

    for move in check_new(-1, Action("pass")):
        if move[0] >= 0:
            yield move
    while not r.is_over:
        if k >= len(recorded):
            raise ReplayMismatchError(
                f"{_where(hand, k)}: the record ends while seats {r.pending} must act"
            )
        nxt = recorded[k]
        if nxt.get("type") == "penalty":
            seen = r.n_events
            action = Action("win")
            play(nxt["seat"], action)
            yield from check_new(nxt["seat"], action)
            if r.n_events == seen:
                # penalty_mode = botzone: the false win waits for the seats before it in
                # claim order, which passed (a true win there would stand instead).
                while r.pending:
                    s = r.pending[0]
                    play(s, Action("pass"))
                    yield from check_new(s, Action("pass"))
            continue
        wins = set()
        j = k
        while j < len(recorded) and recorded[j].get("type") == "win":
            wins.add(recorded[j]["seat"])
            j += 1
        where = _where(hand, k)
        for s in r.pending:
            try:
                action = _decision(r, s, nxt, wins, where)
            except ReplayMismatchError:
                raise
            except ValueError as e:  # a recorded tile no action takes
                raise ReplayMismatchError(
                    f"{where}: the engine refuses the recorded play: {e}"
                ) from None
            play(s, action)
            yield from check_new(s, action)
    if k != len(recorded):
        raise ReplayMismatchError(
            f"{_where(hand, k)}: the engine ended the hand at event {k} of {len(recorded)}"
        )
    if _norm(r.result) != _norm(hand.result):
        raise ReplayMismatchError(
            f"{_where(hand, len(recorded))}: the engine's result {r.result} differs from "
            f"the record's {hand.result}"
        )


def _replay_round(r: Round, hand: HandRecord) -> None:
    """Plays the recorded decisions of `hand` on `r` and checks every event and the
    result."""
    for _ in replay_moves(r, hand):
        pass


def check_wall(wall: list[int], rules: RuleSet) -> str | None:
    """What is wrong with ``wall`` as a wall of ``rules`` (None when it is one): its size
    (136, or 144 with flowers) and every tile as often as the wall holds it."""
    flowers = bool(rules.options().get("flowers", False))
    size = 144 if flowers else 136
    if len(wall) != size:
        return f"has {len(wall)} tiles, the rules' wall {size}"
    counts = [0] * 42
    for t in wall:
        if not 0 <= t < (42 if flowers else 34):
            return f"holds the tile code {t}, not in this wall"
        counts[t] += 1
    for t, c in enumerate(counts):
        want = 4 if t < 34 else 1 if flowers else 0
        if c != want:
            return f"holds {c} of tile code {t}, the wall {want}"
    return None


def round_from_wall(
    rules: RuleSet,
    wall: list[int],
    seed: int,
    dealer: int,
    prevalent_wind: int,
    scores: list[int] | None = None,
) -> Round:
    """A round dealt from ``wall`` (tiles in :attr:`Round.wall` order) instead of a
    shuffle; ``seed`` throws the dice. Raises ``InvalidHandError`` for a wall that is not
    the rule set's."""
    # The arranged-deal positions of Round(hands=..., draws=...): three rounds of four tiles
    # per seat, one more each, the dealer's jump, then the head draws.
    hands: list[list[int]] = [[], [], [], []]
    for i in range(4):
        h = [wall[r * 16 + i * 4 + k] for r in range(3) for k in range(4)] + [wall[48 + i]]
        if i == 0:
            h.append(wall[52])
        hands[(dealer + i) % 4] = h
    return Round(rules, seed, dealer, prevalent_wind, hands=hands, draws=wall[53:], scores=scores)


def hand_round(rules: RuleSet, hand: HandRecord) -> Round:
    """The round ``hand`` was dealt, before its first decision: from the wall it records
    (a version 3 record, :func:`round_from_wall`), else shuffled from its seed, with its
    dealer, prevalent wind and scores."""
    if hand.wall is not None:
        return round_from_wall(
            rules, hand.wall, hand.seed, hand.dealer, hand.prevalent_wind, hand.scores_before
        )
    return Round(rules, hand.seed, hand.dealer, hand.prevalent_wind, scores=hand.scores_before)


def replay_hand(rules: RuleSet, hand: HandRecord) -> Round:
    """Re-plays one hand on its own (from the seed, or the wall, dealer, wind and scores
    it records) and checks every event and the result."""
    r = hand_round(rules, hand)
    _replay_round(r, hand)
    return r


def _replay_walled(record: MatchRecord, require_seed: bool) -> None:
    """:func:`replay_record` for a record whose hands name their walls."""
    rules = record.rule_set()
    scores = [0, 0, 0, 0]
    for i, h in enumerate(record.hands):
        if h.index != i or list(h.scores_before) != scores:
            raise ReplayMismatchError(
                f"{_where(h)}: hand {h.index} with the scores {h.scores_before} where hand "
                f"{i} with {scores} comes next"
            )
        if h.wall is None:
            raise ReplayMismatchError(f"{_where(h)}: the hand does not name its wall")
        if require_seed:
            shuffled = Round(rules, h.seed, h.dealer, h.prevalent_wind).wall
            if list(h.wall) != shuffled:
                raise ReplayMismatchError(
                    f"{_where(h)}: the hand is dealt from a wall the record gives, not the "
                    f"wall its seed {h.seed} shuffles (required here: require_seed)"
                )
        try:
            r = replay_hand(rules, h)
        except ReplayMismatchError:
            raise
        except ValueError as e:
            raise ReplayMismatchError(f"{_where(h)}: the hand's wall: {e}") from None
        result = r.result or {}
        scores = [a + b for a, b in zip(scores, result.get("deltas", [0] * 4), strict=True)]
        if list(h.scores_after) != scores:
            raise ReplayMismatchError(
                f"{_where(h, len(h.events_json))}: the scores after the hand are "
                f"{h.scores_after}, the hand makes {scores}"
            )
    if list(record.final_scores) != scores:
        raise ReplayMismatchError(f"the final scores {record.final_scores}, expected {scores}")


def replay_record(record: MatchRecord, *, require_seed: bool = False) -> None:
    """Re-plays every hand of `record` through a :class:`Match` built from its header and
    checks that each hand is the match's next one (index, seed, dealer, prevalent wind,
    scores) and that the engine reproduces every recorded event, result and score.
    Raises :class:`ReplayMismatchError` naming the line of the first difference. A record
    whose hands name their walls (version 3) deals each hand from its wall, with the
    dealer and prevalent wind it gives, and checks the same: that proves the play follows
    from the walls in the file, not where they came from; with ``require_seed`` each such
    wall must also be the one the hand's seed shuffles."""
    try:
        m = Match(record.rule_set(), record.seed, record.n_hands)
    except (ValueError, TypeError, OverflowError) as e:
        raise ReplayMismatchError(f"the header's rules, seed or hands: {e}") from None
    if len(record.hands) > record.n_hands:
        raise ReplayMismatchError(
            f"the record holds {len(record.hands)} hands of a {record.n_hands}-hand match"
        )
    if record.walls:
        _replay_walled(record, require_seed)
        return
    for i, h in enumerate(record.hands):
        where = _where(h)
        if h.wall is not None:
            raise ReplayMismatchError(f"{where}: a hand names its wall in a record of version 2")
        checks = [
            ("index", h.index, i),
            ("seed", h.seed, m.hand_seed),
            ("dealer", h.dealer, m.dealer),
            ("prevalent wind", h.prevalent_wind, m.prevalent_wind),
            ("scores before the hand", list(h.scores_before), list(m.scores)),
        ]
        for what, got, want in checks:
            if got != want:
                raise ReplayMismatchError(
                    f"{where}: the {what} is {got}, but hand {i} of this match "
                    f"(seed {record.seed}) has {want}"
                )
        r = m.start_hand()
        _replay_round(r, h)
        m.finish_hand(r)
        if list(h.scores_after) != list(m.scores):
            raise ReplayMismatchError(
                f"{_where(h, len(h.events_json))}: the scores after the hand are "
                f"{h.scores_after}, the match has {m.scores}"
            )
    if list(record.final_scores) != list(m.scores):
        raise ReplayMismatchError(f"the final scores {record.final_scores}, expected {m.scores}")
