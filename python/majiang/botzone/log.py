"""Botzone judge logs (docs/rules/botzone.md, B-7): a majiang hand as the Chinese
Standard Mahjong judge's input, and a finished Botzone match read back as a
:class:`~majiang.record.MatchRecord`.

The judge's input (and the log Botzone keeps of a match) is one JSON object::

    {"initdata": {"walltiles": "W1 B3 ...", "quan": 2, "srand": 12345},
     "log": [judge output 0, answers 0, judge output 1, answers 1, ..., final output]}

- ``initdata``: ``walltiles``, the 136 tiles as Botzone names separated by spaces, and
  ``quan``, the prevalent wind (``srand`` only seeds what the judge draws at random
  when the others are missing). The walls are private (B-1): player ``p`` owns the
  ``p``-th run of 34 names and takes its tiles from the end of the run: its 13 tiles
  at the deal, then every draw (replacements included). In majiang's order
  (:attr:`majiang.Round.wall`) each quarter is taken from its front, so each run of 34
  is that quarter reversed.
- Each judge output (even entries) is ``{"output": {"command": "request", "content":
  {"0": request, ..., "3": request}, "display": {...}}}``; the last one has ``"command":
  "finish"`` and each player's score change as its ``content``.
- Each answers entry (odd entries) is ``{"0": {"verdict": "OK", "response": "PASS"},
  ...}``: what each player answered to the judge output before it; the judge reads only
  these (and ``initdata``) and plays the hand again from them.

One turn of the judge per request: the position (``0``), the deal (``1``), each draw
(``2 t`` to the drawer, ``3 p DRAW`` to the others; answered by the drawer with ``PLAY``,
``GANG t``, ``BUGANG t`` or ``HU``), each discard (``3 p PLAY t``, or ``3 p PENG t`` /
``3 p CHI m t`` after a claim; answered by the others with ``PASS``, ``HU``, ``PENG t``,
``CHI m t`` or ``GANG``), each kong (``3 p GANG``, answered with ``PASS``) and each added
kong (``3 p BUGANG t``, answered with ``PASS`` or a robbing ``HU``). Player ``p`` is the
seat ``p`` places after the dealer (Botzone's player 0 deals, B-3).

:func:`write_log` writes a hand of a record played under :func:`majiang.botzone.rules`
(private walls, no flowers) this way. A majiang record keeps what the claims resolved
to, not every seat's wish: a claim that lost to a higher one is written as ``PASS`` (the
judge resolves it the same way).

:func:`read_log` reads such a log (written by majiang or kept by Botzone) into a
:class:`~majiang.record.MatchRecord` of one hand dealt from the log's wall (a version 3
record, see :mod:`majiang.record`): it plays the answers on a majiang round under
``mj.botzone.rules()``, then checks that every request and the final scores of the log
are those the round gives. A log that is malformed, cut before the hand ends, has
answers the rules refuse, or requests and scores that do not follow from its answers
raises :class:`LogError` naming the entry and the problem. A hand the judge ended with a
penalty for a refused answer (``WA``, a time-out) has no counterpart in a majiang round
and is refused the same way; a false win (``WH``) is read as the ``penalty_mode =
botzone`` penalty (B-4).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any

from .._core import Action, IllegalActionError, InvalidHandError, Match, Round, RuleError
from .._files import atomic_write
from .._untrusted import load_json
from ..errors import LogError
from ..record import HandRecord, MatchRecord, check_wall, round_from_wall
from .preset import rules
from .protocol import ProtocolError, tile_code, tile_name

__all__ = ["LogError", "LogRecord", "Refusal", "judge_log", "parse_log", "read_log", "write_log"]

#: The largest log :func:`read_log` reads (bytes); a whole hand is some tens of KB.
MAX_LOG_BYTES = 1 << 24
_PASS = "PASS"


def _rules():
    return rules()


def _botzone_order(wall: list[int]) -> list[int]:
    """majiang's wall order <-> Botzone's walltiles order (each quarter reversed; the
    mapping is its own inverse)."""
    q = len(wall) // 4
    return [t for p in range(4) for t in reversed(wall[p * q : (p + 1) * q])]


def _names(tiles: list[int]) -> str:
    return " ".join(tile_name(t) for t in tiles)


# ---- the judge's turns of a played hand -------------------------------------------------


class _Turns:
    """The judge's turns of a finished hand, from its events: per turn the requests and
    the answers (by Botzone player), then the final scores."""

    def __init__(self, events: list[dict[str, Any]], dealer: int, quan: int, deltas: list[int]):
        self.turns: list[tuple[list[str], list[str], dict[str, Any]]] = []
        self.dealer = dealer
        self.events = [e for e in events if e["type"] != "dice"]
        self.i = 0
        self.finish: dict[str, Any] = {}
        self.scores = [deltas[(dealer + p) % 4] for p in range(4)]
        self._build(quan)

    def pid(self, seat: int) -> int:
        return (seat - self.dealer) % 4

    def next(self, what: str) -> dict[str, Any]:
        if self.i >= len(self.events):
            raise LogError(f"the hand's events end {what}")
        e = self.events[self.i]
        self.i += 1
        if e["type"] == "flower":
            raise LogError("a hand with flowers: Botzone's table has none (B-2)")
        return e

    def add(self, requests: list[str], answers: list[str], display: dict[str, Any]) -> None:
        self.turns.append((requests, answers, display))

    def end(self, action: str, player: int | None = None) -> None:
        self.finish = {"action": action, "score": list(self.scores)}
        if player is not None:
            self.finish["player"] = player
        if self.i != len(self.events):
            raise LogError(f"the hand's events go on after its end ({self.events[self.i]})")

    def _build(self, quan: int) -> None:
        deals: dict[int, list[int]] = {}
        while self.i < len(self.events) and self.events[self.i]["type"] == "deal":
            e = self.next("at the deal")
            deals[self.pid(e["seat"])] = list(e["tiles"])
        if sorted(deals) != [0, 1, 2, 3] or len(deals[0]) != 14:
            raise LogError("the hand does not start with the deal of four hands")
        pass4 = [_PASS] * 4
        self.add([f"0 {p} {quan}" for p in range(4)], pass4, {"action": "INIT", "quan": quan})
        hands = [deals[p][:13] for p in range(4)]
        self.add(
            [f"1 0 0 0 0 {_names(hands[p])}" for p in range(4)],
            pass4,
            {"action": "DEAL", "hand": [[tile_name(t) for t in h] for h in hands]},
        )
        stage: tuple[Any, ...] = ("draw", 0, deals[0][13])
        while True:
            kind = stage[0]
            answers = [_PASS] * 4
            if kind == "draw":
                _, p, t = stage
                requests = [f"2 {tile_name(t)}" if q == p else f"3 {p} DRAW" for q in range(4)]
                display = {"action": "DRAW", "player": p, "tile": tile_name(t)}
                e = self.next("at a draw")
                typ, x = e["type"], e.get("tile", 0)
                if self.pid(e.get("seat", -1)) != p and typ != "exhaustive_draw":
                    raise LogError(f"player {p} drew but {e} follows")
                if typ == "discard":
                    answers[p] = f"PLAY {tile_name(x)}"
                    stage = ("window", p, f"3 {p} PLAY {tile_name(x)}", x)
                elif typ == "concealed_kong":
                    answers[p] = f"GANG {tile_name(x)}"
                    stage = ("announce", p, f"3 {p} GANG")
                elif typ == "added_kong":
                    answers[p] = f"BUGANG {tile_name(x)}"
                    stage = ("rob", p, x)
                elif typ in ("win", "penalty"):
                    answers[p] = "HU"
                    self.add(requests, answers, display)
                    self.end("HU" if typ == "win" else "WH", p)
                    return
                else:
                    raise LogError(f"player {p} drew but {e} follows")
                self.add(requests, answers, display)
                continue
            if kind == "window":
                _, p, request, x = stage
                requests = [request] * 4
                op = request.split()[2]
                display = {"action": op, "player": p, "tile": tile_name(x)}
                e = self.next("at a discard")
                typ = e["type"]
                q = self.pid(e.get("seat", 0))
                if typ in ("win", "penalty"):
                    answers[q] = "HU"
                    self.add(requests, answers, display)
                    self.end("HU" if typ == "win" else "WH", q)
                    return
                if typ in ("pung", "chow"):
                    d = self.next("after a claim")
                    if d["type"] != "discard" or self.pid(d["seat"]) != q:
                        raise LogError(f"player {q} claimed but {d} follows")
                    y = tile_name(d["tile"])
                    if typ == "pung":
                        answers[q] = f"PENG {y}"
                        nxt = f"3 {q} PENG {y}"
                    else:
                        mid = tile_name(e["low"] + 1)
                        answers[q] = f"CHI {mid} {y}"
                        nxt = f"3 {q} CHI {mid} {y}"
                    stage = ("window", q, nxt, d["tile"])
                elif typ == "kong":
                    answers[q] = "GANG"
                    stage = ("announce", q, f"3 {q} GANG")
                elif typ == "draw":
                    stage = ("draw", q, e["tile"])
                elif typ == "exhaustive_draw":
                    self.add(requests, answers, display)
                    self.end("HUANG")
                    return
                else:
                    raise LogError(f"a discard of player {p} is followed by {e}")
                self.add(requests, answers, display)
                continue
            if kind == "announce":
                _, q, request = stage
                self.add([request] * 4, answers, {"action": "GANG", "player": q})
            else:
                _, q, x = stage
                e = self.events[self.i] if self.i < len(self.events) else {}
                display = {"action": "BUGANG", "player": q, "tile": tile_name(x)}
                if e.get("type") in ("win", "penalty"):
                    self.i += 1
                    r = self.pid(e["seat"])
                    answers[r] = "HU"
                    self.add([f"3 {q} BUGANG {tile_name(x)}"] * 4, answers, display)
                    self.end("HU" if e["type"] == "win" else "WH", r)
                    return
                self.add([f"3 {q} BUGANG {tile_name(x)}"] * 4, answers, display)
            e = self.next("after a kong")
            if e["type"] == "exhaustive_draw":
                self.end("HUANG")
                return
            if e["type"] != "draw" or self.pid(e["seat"]) != q:
                raise LogError(f"player {q} declared a kong but {e} follows")
            stage = ("draw", q, e["tile"])


def _check_table(rules) -> None:
    o = rules.options()
    if rules.name != "gb" or not o.get("private_walls") or o.get("flowers"):
        raise LogError(
            "a Botzone log holds a gb hand on private walls without flowers "
            "(mj.botzone.rules()); this record's rules differ"
        )


def judge_log(record: MatchRecord, hand: int = 0) -> dict[str, Any]:
    """Hand ``hand`` of ``record`` as the Botzone judge's input (see the module
    documentation): ``initdata`` with the wall and the prevalent wind, and the judge's
    requests alternating with every player's answers, ending with the final scores
    (``players`` names the record's players; the judge does not read it). The
    record's rules must be Botzone's table (``gb`` on private walls, no flowers, as
    :func:`majiang.botzone.rules`); raises :class:`LogError` otherwise."""
    rules = record.rule_set()
    _check_table(rules)
    if not 0 <= hand < len(record.hands):
        raise LogError(f"the record has no hand {hand} ({len(record.hands)} hands)")
    h = record.hands[hand]
    if h.wall is not None:
        wall = list(h.wall)
    else:
        wall = list(Round(rules, h.seed, h.dealer, h.prevalent_wind).wall)
    turns = _Turns(h.events, h.dealer, h.prevalent_wind, list(h.result["deltas"]))
    initdata = {
        "walltiles": " ".join(tile_name(t) for t in _botzone_order(wall)),
        "quan": h.prevalent_wind,
        "srand": record.seed % 2**31,
    }
    log: list[dict[str, Any]] = []
    for k, (requests, answers, display) in enumerate(turns.turns):
        output: dict[str, Any] = {
            "command": "request",
            "content": {str(p): requests[p] for p in range(4)},
            "display": display,
        }
        if k == 0:
            output["initdata"] = initdata
        log.append({"output": output, "verdict": "OK"})
        log.append({str(p): {"verdict": "OK", "response": answers[p]} for p in range(4)})
    final = {
        "command": "finish",
        "content": {str(p): turns.scores[p] for p in range(4)},
        "display": turns.finish,
    }
    log.append({"output": final, "verdict": "OK"})
    return {"initdata": initdata, "log": log, "players": [{"name": n} for n in record.players]}


def write_log(record: MatchRecord, path: str | os.PathLike[str], *, hand: int = 0) -> str:
    """Writes :func:`judge_log` of ``record``'s hand ``hand`` to ``path`` (one line of
    JSON, as Botzone passes it to the judge); returns the path. The file is written
    through a temporary file created safely beside it and renamed over it, so a failed
    write leaves the previous file whole (see :mod:`majiang._files`)."""
    text = json.dumps(judge_log(record, hand), ensure_ascii=False, separators=(",", ":"))
    target = os.fspath(path)
    atomic_write(target, (text + "\n").encode("utf-8"))
    return target


# ---- reading ----------------------------------------------------------------------------


def read_log(path: str | os.PathLike[str], *, max_bytes: int = MAX_LOG_BYTES) -> LogRecord:
    """Reads a Botzone log file (the judge's input, or the log Botzone keeps of a
    finished match) into a :class:`~majiang.record.MatchRecord` (see :func:`parse_log`).
    Raises :class:`LogError` naming the file, the entry and the problem."""
    source = os.fspath(path)
    with open(source, "rb") as f:
        data = f.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise LogError(f"the log is larger than {max_bytes} bytes", source=source)
    return parse_log(data, source=source)


def _load(log: Any, source: str | None) -> Any:
    if isinstance(log, bytes | bytearray):
        try:
            log = bytes(log).decode("utf-8")
        except UnicodeDecodeError as e:
            raise LogError(
                f"the log is not UTF-8 text (byte {e.start + 1})", source=source
            ) from None
    if isinstance(log, str):
        if not log.strip():
            raise LogError("the log is empty", source=source)
        try:
            return load_json(log)
        except (ValueError, RecursionError) as e:
            raise LogError(f"the log is not valid JSON ({e})", source=source) from None
    return log


def parse_log(
    log: dict[str, Any] | list[Any] | str | bytes,
    *,
    source: str | None = None,
) -> LogRecord:
    """A Botzone log (its JSON text or the parsed object: ``{"initdata": ..., "log":
    [...]}``, or the ``log`` list alone when its first output carries ``initdata``) as a
    one-hand :class:`~majiang.record.MatchRecord` under :func:`majiang.botzone.rules`,
    dealt from the log's wall, Botzone's player ``p`` at seat ``p`` (player 0 deals). The
    record replays (:meth:`~majiang.record.MatchRecord.replay`) and shows with ``majiang
    replay``. Raises :class:`LogError` for a log that is malformed, cut, refused by the
    rules or not consistent with itself (see the module documentation)."""
    reader: _Reader | None = None
    try:
        reader = _Reader(_load(log, source), source)
        return reader.record()
    except LogError:
        raise
    except Exception as e:  # noqa: BLE001 - any other failure is reported as the log's
        entry = 2 * reader.turn - 1 if reader is not None and reader.turn else None
        raise LogError(
            f"the log cannot be read: {type(e).__name__}: {e}", source=source, entry=entry
        ) from e


def _describe(v: Any) -> str:
    if isinstance(v, str):
        return repr(v[:60])
    return type(v).__name__ if v is not None else "null"


#: Botzone tile names as the judge compares them (exact strings), without flowers.
_CODES = {tile_name(c): c for c in range(34)}


@dataclass(frozen=True)
class Refusal:
    """A hand the judge ended by refusing an answer (docs/rules/botzone.md, B-4): the
    offender pays 30 and each other player receives 10, with no winner. ``verdict`` is
    ``WA`` for an answer the judge refuses (a malformed line, a move its rules do not
    allow) or the verdict Botzone gave the answer itself (``TLE``, ``MLE``, ``RE``, ...);
    ``entry`` the index of the answers in the log's ``log`` list and ``answer`` the
    response refused (None for a verdict other than ``OK``). ``events`` are majiang's
    events of the hand up to that answer (a majiang round has no such move, so the
    record of the log holds no finished hand)."""

    player: int
    verdict: str
    entry: int
    answer: str | None
    reason: str
    scores: list[int]
    events: list[dict[str, Any]] = field(repr=False)

    def __str__(self) -> str:
        what = f"answered {self.answer!r}" if self.answer is not None else "gave no answer"
        return (
            f"log entry {self.entry}: the judge refused player {self.player}, who {what} "
            f"({self.verdict}: {self.reason}); the hand ends with the scores {self.scores}"
        )


@dataclass
class LogRecord(MatchRecord):
    """The record :func:`read_log` makes of a Botzone log: a
    :class:`~majiang.record.MatchRecord` of its one hand and, for a hand the judge ended
    by refusing an answer, the :class:`Refusal` (the record then holds no finished hand:
    ``complete`` is false)."""

    refusal: Refusal | None = None


class _Refused(Exception):
    def __init__(self, player: int, verdict: str, entry: int, answer: str | None, reason: str):
        super().__init__(reason)
        self.player, self.verdict, self.entry = player, verdict, entry
        self.answer, self.reason = answer, reason


def _penalty_scores(player: int) -> list[int]:
    return [-30 if p == player else 10 for p in range(4)]


class _Reader:
    """Plays a Botzone log's answers as the judge reads them (judge/main.cpp: the order in
    which it checks each answer, what it accepts, when it ends the hand), each accepted
    move on a majiang round, and checks the log's requests and scores against them."""

    def __init__(self, obj: Any, source: str | None):
        self.source = source
        if isinstance(obj, list):
            obj = {"log": obj}
        if not isinstance(obj, dict) or not isinstance(obj.get("log"), list):
            raise self.error("a Botzone log is an object with a 'log' list")
        self.obj = obj
        self.entries: list[Any] = obj["log"]
        if not self.entries:
            raise self.error("the log has no entries")
        for i, e in enumerate(self.entries):
            if not isinstance(e, dict):
                raise self.error(f"an entry must be an object, not {_describe(e)}", i)
        self.rules = _rules()
        self.wall, self.quan, self.seed = self._initdata()
        self.turn = 0  # the next answers entry to take, counted in turns
        self.requests: list[list[str]] = []
        #: How the hand ended: ("HU" | "WH", player), ("HUANG",) or a _Refused.
        self.outcome: Any = None
        self.r: Round | None = None

    def error(self, problem: str, entry: int | None = None) -> LogError:
        return LogError(problem, source=self.source, entry=entry)

    # ---- the parts of the log

    def _initdata(self) -> tuple[list[int], int, int]:
        init = self.obj.get("initdata")
        if init in (None, ""):
            out = self.entries[0].get("output")
            init = out.get("initdata") if isinstance(out, dict) else None
        if isinstance(init, str):
            try:
                init = load_json(init)
            except ValueError:
                raise self.error(f"the initdata {_describe(init)} is not a JSON object") from None
        if not isinstance(init, dict):
            raise self.error("the log has no initdata (the wall and the prevalent wind)")
        text, quan = init.get("walltiles"), init.get("quan")
        if not isinstance(text, str) or not text.strip():
            raise self.error("the initdata has no 'walltiles'")
        if type(quan) is not int or not 0 <= quan <= 3:
            raise self.error(f"the initdata's 'quan' must be 0-3, not {_describe(quan)}")
        try:
            tiles = [tile_code(w) for w in text.split(" ")]
        except ProtocolError as e:
            raise self.error(f"the initdata's walltiles: {e}") from None
        if any(t >= 34 for t in tiles):
            raise self.error("the walltiles hold flowers: Botzone's table has none (B-2)")
        wall = _botzone_order(tiles) if len(tiles) % 4 == 0 else tiles
        problem = check_wall(wall, self.rules)
        if problem:
            raise self.error(f"the walltiles {problem}")
        srand = init.get("srand", 0)
        seed = srand % 2**64 if type(srand) is int else 0
        return wall, quan, seed

    def answers(self, requests: list[str]) -> tuple[int, list[tuple[Any, str]]]:
        """The answers to ``requests`` (the judge's next turn): the entry's index and each
        player's verdict and response (the response as the judge reads it: a missing one
        is empty)."""
        self.requests.append(requests)
        i = 2 * self.turn + 1
        if i >= len(self.entries):
            raise self.error(
                f"the log is cut: it ends after {self.turn} turns while the hand goes on",
                len(self.entries) - 1,
            )
        e = self.entries[i]
        out = []
        for p in range(4):
            a = e.get(str(p))
            if not isinstance(a, dict):
                raise self.error(f"player {p} has no answer (an object with a 'verdict')", i)
            response = a.get("response")
            if response is None:
                response = ""
            if not isinstance(response, str):
                raise self.error(f"player {p}'s response is {_describe(response)}, not text", i)
            out.append((a.get("verdict"), response))
        self.turn += 1
        return i, out

    # ---- the judge's checks

    def verdict(self, i: int, p: int, ans: tuple[Any, str]) -> None:
        verdict, _ = ans
        if verdict != "OK":
            v = verdict if isinstance(verdict, str) else ""
            raise _Refused(p, v, i, None, "the answer's verdict is not OK")

    def must_pass(self, i: int, p: int, ans: tuple[Any, str], why: str) -> None:
        self.verdict(i, p, ans)
        if ans[1] != _PASS:
            raise _Refused(p, "WA", i, ans[1], why)

    def all_pass(self, requests: list[str]) -> None:
        i, a = self.answers(requests)
        for p in range(4):
            self.must_pass(i, p, a[p], "only PASS is taken here")

    # ---- playing

    def hand(self, p: int) -> list[int]:
        assert self.r is not None
        return list(self.r.hand(p))

    def walls(self) -> list[int]:
        assert self.r is not None
        return list(self.r.seat_walls or [0, 0, 0, 0])

    def apply(self, i: int, p: int, answer: str, action: Action) -> None:
        assert self.r is not None
        try:
            self.r.apply(p, action)
        except (IllegalActionError, InvalidHandError) as e:
            raise self.error(
                f"player {p} answered {answer!r}, which the judge accepts but majiang's "
                f"rules refuse: {e}",
                i,
            ) from None

    def pass_pending(self, i: int, but: int = -1) -> None:
        assert self.r is not None
        r = self.r
        while not r.is_over and r.phase in ("claim", "rob_kong"):
            rest = [s for s in r.pending if s != but]
            if not rest:
                return
            self.apply(i, rest[0], _PASS, Action("pass"))

    def declare(self, i: int, p: int) -> None:
        """``p`` answered HU, the first in the judge's order: a win or the judge's WH."""
        assert self.r is not None
        r = self.r
        self.apply(i, p, "HU", Action("win"))
        self.pass_pending(i)
        if not r.is_over:
            raise self.error(f"player {p} answered HU, but majiang's round goes on", i)
        won = any(w["seat"] == p for w in (r.result or {}).get("wins", []))
        self.outcome = ("HU" if won else "WH", p)

    def play(self) -> Round:
        try:
            r = round_from_wall(self.rules, self.wall, self._hand_seed(), 0, self.quan)
        except (InvalidHandError, RuleError, ValueError) as e:
            raise self.error(f"the wall cannot be dealt: {e}") from None
        self.r = r
        deal = {e["seat"]: list(e["tiles"]) for e in r.events() if e["type"] == "deal"}
        try:
            self.all_pass([f"0 {p} {self.quan}" for p in range(4)])
            self.all_pass([f"1 0 0 0 0 {_names(deal[p][:13])}" for p in range(4)])
            stage: tuple[Any, ...] | None = ("draw", 0)
            while stage is not None:
                kind = stage[0]
                if kind == "draw":
                    stage = self._draw(stage[1])
                elif kind == "window":
                    stage = self._window(*stage[1:])
                else:
                    stage = self._kong(*stage[1:])
        except _Refused as x:
            self.outcome = x
        return r

    def _draw(self, p: int) -> tuple[Any, ...] | None:
        r = self.r
        assert r is not None
        if r.is_over:
            if not (r.result or {}).get("exhaustive") or self.walls()[p] != 0:
                raise self.error(f"player {p} is to draw, but majiang's round is over")
            self.outcome = ("HUANG",)
            return None
        if r.phase != "turn" or r.turn != p or r.drawn is None:
            raise self.error(f"player {p} is to draw, but majiang's round has {r.phase}")
        t = r.drawn
        i, a = self.answers([f"2 {tile_name(t)}" if q == p else f"3 {p} DRAW" for q in range(4)])
        action: Action | None = None
        nxt: tuple[Any, ...] | None = None
        for s in range(4):
            if s != p:
                self.must_pass(i, s, a[s], "to another player's draw, where only PASS is taken")
                continue
            self.verdict(i, p, a[p])
            text = a[p][1]
            words = text.split(" ")
            if words == ["HU"]:
                self.declare(i, p)
                return None
            if len(words) != 2:
                raise _Refused(p, "WA", i, text, "not PLAY t, GANG t, BUGANG t or HU")
            op, named = words[0], _CODES.get(words[1])
            held = self.hand(p)
            walls = self.walls()
            if op == "PLAY" and named in held:
                action, nxt = (
                    Action("discard", named),
                    ("window", p, f"3 {p} PLAY {words[1]}", named),
                )
            elif op in ("GANG", "BUGANG") and (walls[p] == 0 or walls[(p + 1) % 4] == 0):
                raise _Refused(
                    p, "WA", i, text, "a kong when its own wall or the next player's is empty"
                )
            elif op == "GANG" and named is not None and held.count(named) == 4:
                action, nxt = Action("concealed_kong", named), ("kong", p, None)
            elif (
                op == "BUGANG"
                and named in held
                and any(m.kind == "pung" and m.tile == named for m in r.melds(p))
            ):
                action, nxt = Action("added_kong", named), ("kong", p, named)
            else:
                raise _Refused(p, "WA", i, text, "a move its tiles do not allow")
        assert action is not None
        self.apply(i, p, a[p][1], action)
        return nxt

    def _window(self, d: int, request: str, x: int) -> tuple[Any, ...] | None:
        """The answers to a discard ``x`` of ``d`` (``request``: PLAY, PENG or CHI)."""
        r = self.r
        assert r is not None
        i, a = self.answers([request] * 4)
        self.must_pass(i, d, a[d], "to its own discard, where only PASS is taken")
        order = [(d + k) % 4 for k in (1, 2, 3)]
        for s in order:
            self.verdict(i, s, a[s])
            if a[s][1] == "HU":
                self.declare(i, s)
                return None
        # Pungs and kongs, then chows, each in player order; the first taken ends the search.
        claim: tuple[Any, ...] | None = None
        for s in range(4):
            if s == d:
                continue
            text = a[s][1]
            words = text.split(" ")
            held = self.hand(s)
            if words == [_PASS] or len(words) == 3:
                continue
            if words == ["GANG"] and held.count(x) >= 3:
                claim = (s, text, Action("kong", x), ("kong", s, None))
            elif len(words) == 2 and words[0] == "PENG" and held.count(x) >= 2:
                rest = list(held)
                rest.remove(x)
                rest.remove(x)
                y = _CODES.get(words[1])
                if y not in rest:
                    raise _Refused(s, "WA", i, text, "a pung discarding a tile it does not hold")
                claim = (s, text, Action("pung", x), ("window", s, f"3 {s} PENG {words[1]}", y))
            else:
                raise _Refused(s, "WA", i, text, "not an answer to a discard")
            break
        if claim is None:
            for s in range(4):
                if s == d:
                    continue
                text = a[s][1]
                words = text.split(" ")
                if len(words) != 3:
                    continue
                if words[0] != "CHI" or s != order[0]:
                    raise _Refused(s, "WA", i, text, "a chow by another than the next player")
                mid = _CODES.get(words[1])
                ok = mid is not None and mid < 27 and mid // 9 == x // 9 and abs(mid - x) <= 1
                rest = self.hand(s) + [x]
                for c in (mid - 1, mid, mid + 1) if ok and mid is not None else ():
                    if c // 9 != x // 9 or c not in rest:
                        ok = False
                        break
                    rest.remove(c)
                if not ok or mid is None:
                    raise _Refused(s, "WA", i, text, "a chow its tiles do not make")
                y = _CODES.get(words[2])
                if y not in rest:
                    raise _Refused(s, "WA", i, text, "a chow discarding a tile it does not hold")
                nxt = ("window", s, f"3 {s} CHI {words[1]} {words[2]}", y)
                claim = (s, text, Action("chow", mid - 1), nxt)
                break
        if claim is None:
            self.pass_pending(i)
            return "draw", order[0]
        s, text, action, nxt = claim
        if self.walls()[order[0]] == 0:
            raise _Refused(
                s, "WA", i, text, "a claim other than a win on the last discard before the wall"
            )
        self.pass_pending(i, s)
        self.apply(i, s, text, action)
        if nxt[0] == "window":
            self.apply(i, s, text, Action("discard", nxt[3]))
        return nxt

    def _kong(self, q: int, added: int | None) -> tuple[Any, ...] | None:
        """The answers to ``q``'s kong: ``added`` is the tile of an added kong (which a
        HU may rob), None for a concealed kong or one on a discard."""
        request = f"3 {q} GANG" if added is None else f"3 {q} BUGANG {tile_name(added)}"
        i, a = self.answers([request] * 4)
        for s in [(q + k) % 4 for k in range(4)]:
            self.verdict(i, s, a[s])
            text = a[s][1]
            if text == _PASS:
                continue
            if text == "HU" and added is not None and s != q:
                self.declare(i, s)
                return None
            raise _Refused(s, "WA", i, text, "to a kong, where only PASS or a robbing HU is taken")
        self.pass_pending(i)
        return "draw", q

    def _hand_seed(self) -> int:
        return Match(self.rules, self.seed, 1).hand_seed_at(0)

    # ---- checking and the record

    def check(self, r: Round) -> None:
        """Every request and the final scores of the log are those of the hand played."""
        n = self.turn
        last = 2 * n
        x = self.outcome
        if isinstance(x, _Refused) and len(self.entries) != last + 1:
            if x.answer is None:
                what = f"player {x.player}'s answer has the verdict {x.verdict!r}"
            else:
                what = f"player {x.player} answered {x.answer!r} ({x.verdict}: {x.reason})"
            raise self.error(
                f"{what}: the judge ends the hand there with its penalty, but the log goes on",
                x.entry,
            )
        if len(self.entries) <= last:
            raise self.error(
                "the log is cut: the judge's final output (the scores) is missing",
                len(self.entries) - 1,
            )
        if len(self.entries) > last + 1:
            raise self.error("the log goes on after the hand ended", last + 1)
        for k, requests in enumerate(self.requests):
            self._check_requests(2 * k, requests)
        out = self.entries[last].get("output")
        if not isinstance(out, dict) or out.get("command") != "finish":
            raise self.error("the last entry is not the judge's finish output", last)
        content = out.get("content")
        scores = [content.get(str(p)) if isinstance(content, dict) else None for p in range(4)]
        if isinstance(self.outcome, _Refused):
            want = _penalty_scores(self.outcome.player)
            action = self.outcome.verdict
            player: int | None = self.outcome.player
        else:
            want = list((r.result or {}).get("deltas", [0] * 4))
            action = self.outcome[0]
            player = self.outcome[1] if len(self.outcome) > 1 else None
        if scores != want:
            why = ""
            if isinstance(x, _Refused):
                answer = f"answer {x.answer!r}" if x.answer is not None else "answer"
                why = (
                    f" ({x.verdict} for player {x.player}'s {answer} at log entry {x.entry}: "
                    f"{x.reason})"
                )
            raise self.error(
                f"the judge's scores are {scores}, the hand's answers give {want}{why}", last
            )
        display = out.get("display")
        if isinstance(display, dict) and "action" in display:
            got = (display.get("action"), display.get("player", player))
            if got != (action, player):
                raise self.error(
                    f"the judge's finish shows {got[0]!r} by player {got[1]}, the hand's "
                    f"answers give {action!r} by player {player}",
                    last,
                )

    def _check_requests(self, i: int, requests: list[str]) -> None:
        out = self.entries[i].get("output")
        if out is None:
            return  # the judge's outputs are not needed to play the hand
        content = out.get("content") if isinstance(out, dict) else None
        if not isinstance(content, dict):
            raise self.error("the judge's output has no requests ('content')", i)
        for p in range(4):
            got = content.get(str(p))
            if not isinstance(got, str) or _norm(got) != _norm(requests[p]):
                raise self.error(
                    f"the judge asks player {p} {_describe(got)}, but the answers before "
                    f"give {requests[p]!r}",
                    i,
                )

    def record(self) -> LogRecord:
        r = self.play()
        self.check(r)
        names = self._players()
        header: dict[str, Any] = {
            "rules": self.rules.name,
            "options": self.rules.options(),
            "seed": self.seed,
            "n_hands": 1,
            "players": names,
            "walls": True,
        }
        x = self.outcome
        if isinstance(x, _Refused):
            refusal = Refusal(
                x.player,
                x.verdict,
                x.entry,
                x.answer,
                x.reason,
                _penalty_scores(x.player),
                r.events(),
            )
            return LogRecord(**header, refusal=refusal)
        result = json.loads(json.dumps(r.result or {}))
        deltas = list(result.get("deltas", [0] * 4))
        hand = HandRecord(
            index=0,
            seed=self._hand_seed(),
            dealer=0,
            prevalent_wind=self.quan,
            scores_before=[0, 0, 0, 0],
            result=result,
            scores_after=deltas,
            events_json=r.events_json(),
            wall=list(self.wall),
        )
        return LogRecord(**header, hands=[hand], final_scores=deltas)

    def _players(self) -> list[str]:
        players = self.obj.get("players")
        names = [f"Botzone player {p}" for p in range(4)]
        if isinstance(players, list) and len(players) == 4:
            for p, x in enumerate(players):
                n = x.get("name") if isinstance(x, dict) else x
                if isinstance(n, str) and 0 < len(n) <= 200:
                    names[p] = n
        return names


def _norm(request: str) -> str:
    """A request with the deal's tiles in order (judges list a hand in any order)."""
    w = request.split()
    if w and w[0] == "1" and len(w) >= 18:
        return " ".join(w[:5] + sorted(w[5:18]) + w[18:])
    return " ".join(w)
