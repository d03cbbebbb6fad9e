"""Real games in, training samples out (docs/data.md).

Readers turn the public Chinese Standard Mahjong game records into :class:`Game` objects,
every one replayed through the engine first: each action must be legal for its seat
when the log says it was taken, each drawn tile the one the log says, and the end, the
fan total and the scores must be the engine's. A game that does not replay raises
:class:`~majiang.DataError` naming it (its ``kind`` says why: ``"format"``,
``"illegal"``, ``"draw"``, ``"result"``); with ``errors="collect"`` a reader returns the
games that replay and the errors of the others (:class:`DataSet`, counted by kind),
never dropping one silently.

- :func:`read_botzone`: a Botzone judge log (JSON, the ``Mahjong-GB`` game; one hand);
- :func:`read_ijcai` (or :func:`iter_ijcai`, one match at a time): the IJCAI strong-AI
  match dump text (``Match`` / ``Wind`` / ``Player N Deal`` ... ``Draw`` / ``Play`` /
  ``Chi`` / ``Peng`` / ``Gang`` / ``AnGang`` / ``BuGang`` / ``Hu`` with ``Ignore``
  clauses, ``Fan`` / ``Score`` or ``Huang``), many matches per file;
- :func:`read_human`: a human match file (tab-separated, Chinese action names 摸牌, 打牌,
  吃, 碰, 明杠, 暗杠, 补杠, 补花, 和牌, ...), one hand per file;
- :func:`read`: any of them by content.

:func:`samples` turns games into training arrays: for every decision of every seat,
pass decisions included, the seat's planes (``features="v1"`` or ``"v2"``), its mask,
the action it took, the seat and the seat's final score of the hand, optionally with
the suit permutations (``augment=True``: the six orders of the three suits, the honours
kept). :func:`write_shards` streams them to ``.npz`` shards for millions of decisions.
"""

from __future__ import annotations

import itertools
import json
import os
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .._core import (
    ENV_N_ACTIONS,
    Action,
    IllegalActionError,
    InvalidHandError,
    Round,
    RuleError,
    RuleSet,
    replay_decisions,
)
from ..errors import DataError, InvalidArgumentError
from ..record import round_from_wall

__all__ = [
    "DataSet",
    "Game",
    "Samples",
    "iter_ijcai",
    "read",
    "read_botzone",
    "read_human",
    "read_ijcai",
    "samples",
    "write_shards",
]

#: The largest file a reader reads whole (bytes; :func:`iter_ijcai` streams any size).
MAX_FILE_BYTES = 1 << 30

_WINDS_ZH = {"东": 0, "南": 1, "西": 2, "北": 3}


@dataclass
class Game:
    """One hand of a real game, replayed through the engine.

    ``decisions`` lists every decision of the hand in the engine's order as ``(seat,
    action code)`` pairs (:attr:`majiang.Action.code`), pass decisions included; with
    ``rules``, ``wall`` (in :attr:`majiang.Round.wall` order), ``seed``, ``dealer`` and
    ``prevalent_wind`` they replay it (:meth:`replay`). ``result`` is the engine's result
    (equal to the log's), ``deltas`` each seat's score change."""

    source: str
    entry: str
    format: str
    rules: RuleSet
    wall: list[int]
    dealer: int
    prevalent_wind: int
    decisions: list[tuple[int, int]]
    result: dict[str, Any]
    seed: int = 0
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def deltas(self) -> list[int]:
        return list(self.result.get("deltas", [0, 0, 0, 0]))

    def replay(self) -> Round:
        """The hand played again from its wall and decisions (a finished ``Round``)."""
        r = round_from_wall(self.rules, self.wall, self.seed, self.dealer, self.prevalent_wind)
        for s, c in self.decisions:
            r.apply(s, Action.from_code(c))
        return r


@dataclass
class DataSet:
    """What a reader with ``errors="collect"`` returns: the games that replay and the
    :class:`~majiang.DataError` of each game that does not."""

    games: list[Game]
    rejected: list[DataError]

    @property
    def counts(self) -> dict[str, int]:
        """Games read, and rejected games by kind of problem."""
        c = Counter(e.kind for e in self.rejected)
        return {"games": len(self.games), **{f"rejected_{k}": v for k, v in sorted(c.items())}}

    def __iter__(self) -> Iterator[Game]:
        return iter(self.games)

    def __len__(self) -> int:
        return len(self.games)


# ---- replaying ---------------------------------------------------------------------------


class _Move:
    """A logged action: ``seat`` takes ``action``; ``draw`` is instead a drawn tile to
    check (-1: a draw the engine made by itself, not checked, which still closes the
    claim window before it); ``line`` where the log says it."""

    __slots__ = ("seat", "action", "draw", "line", "text")

    def __init__(self, seat, action=None, draw=None, line=None, text=""):
        self.seat = seat
        self.action = action
        self.draw = draw
        self.line = line
        self.text = text


_CLAIMS = ("chow", "pung", "kong", "win", "pass")


def _replay(r: Round, moves: list[_Move], err: Any) -> list[tuple[int, int]]:
    """Plays `moves` on `r` (see the module documentation); every pending seat without
    a logged answer in a claim window passes. Returns every decision; raises through
    `err(problem, kind, line)`."""
    decisions: list[tuple[int, int]] = []
    i = 0
    n = len(moves)

    def apply(s: int, a: Action, m: _Move | None) -> None:
        if a not in r.legal_actions(s):
            line = m.line if m else None
            what = m.text if m and m.text else f"{a}"
            raise err(f"{what}: {a} is not legal for seat {s} now", "illegal", line)
        decisions.append((s, a.code))
        r.apply(s, a)

    while not r.is_over:
        pending = r.pending
        if r.phase in ("claim", "rob_kong"):
            answers: dict[int, _Move] = {}
            while (
                i < n
                and moves[i].draw is None
                and moves[i].seat in pending
                and moves[i].seat not in answers
                and moves[i].action.kind in _CLAIMS
            ):
                answers[moves[i].seat] = moves[i]
                i += 1
            for s in pending:
                m = answers.get(s)
                apply(s, m.action if m else Action("pass"), m)
            continue
        if i < n and moves[i].draw is not None:
            m = moves[i]
            if m.draw >= 0 and (r.turn != m.seat or r.drawn != m.draw):
                raise err(
                    f"{m.text}: the wall gives seat {r.turn} "
                    f"{'nothing' if r.drawn is None else r.drawn} ({r.phase})",
                    "draw",
                    m.line,
                )
            i += 1
            continue
        if i >= n:
            raise err(f"the log ends while seat {pending[0]} is to act ({r.phase})", "result", None)
        m = moves[i]
        if m.seat not in pending:
            raise err(
                f"{m.text}: seat {m.seat} acts, but the engine waits for seat {pending[0]}",
                "illegal",
                m.line,
            )
        apply(m.seat, m.action, m)
        i += 1
    # A draw the engine made by itself may close the log (a flower drawn from an empty
    # wall ends the hand).
    while i < n and moves[i].draw == -1:
        i += 1
    if i < n:
        m = moves[i]
        raise err(f"{m.text}: the hand is already over", "result", m.line)
    return decisions


def _check_result(
    r: Round,
    err: Any,
    *,
    winner: int | None,
    fan: int | None,
    scores: list[int] | None,
    self_draw: bool | None,
    line: int | None,
) -> None:
    res = r.result or {}
    wins = res.get("wins", [])
    if winner is None:
        if wins:
            raise err(
                f"the log ends in a draw, the engine has seat {wins[0]['seat']} win", "result", line
            )
    else:
        if not wins or wins[0]["seat"] != winner:
            raise err(
                f"the log has seat {winner} win, the engine "
                + (f"seat {wins[0]['seat']}" if wins else "no win"),
                "result",
                line,
            )
        w = wins[0]
        if fan is not None and w["fan_total"] != fan:
            raise err(
                f"fan total {fan} in the log, {w['fan_total']} by the engine "
                f"({', '.join(f['name'] for f in w['fans'])})",
                "result",
                line,
            )
        if self_draw is not None and (w["how"] != "discard" and w["how"] != "rob") != self_draw:
            raise err(
                f"the log's win is {'self-drawn' if self_draw else 'on a discard'}, "
                f"the engine's {w['how']}",
                "result",
                line,
            )
    if scores is not None and list(res.get("deltas", [])) != scores:
        raise err(f"scores {scores} in the log, {res.get('deltas')} by the engine", "result", line)


def _read_text(path: str | os.PathLike[str]) -> str:
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > MAX_FILE_BYTES:
            raise DataError(f"{size} bytes, more than {MAX_FILE_BYTES}", source=str(p))
        return p.read_text(encoding="utf-8-sig")
    except OSError as e:
        raise DataError(f"cannot read: {e.strerror or e}", source=str(p)) from None
    except UnicodeDecodeError as e:
        raise DataError(f"not UTF-8 text: {e}", source=str(p)) from None


def _collect(it: Iterable[Any], errors: str) -> Any:
    if errors not in ("raise", "collect"):
        raise InvalidArgumentError(f'errors must be "raise" or "collect", got {errors!r}')
    games: list[Game] = []
    rejected: list[DataError] = []
    for g in it:
        if isinstance(g, DataError):
            if errors == "raise":
                raise g
            rejected.append(g)
        else:
            games.append(g)
    return DataSet(games, rejected) if errors == "collect" else games


def _tile(name: str, err: Any, line: int | None) -> int:
    from ..botzone.protocol import ProtocolError, tile_code

    try:
        return tile_code(name)
    except ProtocolError:
        raise err(f"{name!r} is not a tile name", "format", line) from None


# ---- Botzone judge logs ------------------------------------------------------------------


def read_botzone(path: str | os.PathLike[str]) -> list[Game]:
    """The hand of a Botzone judge log (JSON, as Botzone keeps it or
    ``majiang.botzone.write_log`` writes it), replayed by
    :func:`majiang.botzone.read_log` (every request and the final scores checked); a log
    that does not replay raises :class:`~majiang.DataError` (``kind`` ``"illegal"`` for
    an answer the rules refuse or a penalty, ``"result"`` for requests or scores the
    answers do not give, ``"format"`` otherwise). Returns a list of one :class:`Game`."""
    from ..botzone.log import read_log
    from ..errors import LogError

    src = str(path)
    try:
        rec = read_log(path)
    except LogError as e:
        text = e.problem
        kind = (
            "illegal"
            if ("not legal" in text or "refuse" in text or "penalt" in text)
            else "result"
            if ("score" in text or "request" in text)
            else "format"
        )
        raise DataError(text, source=src, entry=Path(src).name, kind=kind) from None
    if getattr(rec, "refusal", None) is not None or not rec.hands:
        raise DataError(
            f"the judge ended the hand with a penalty ({rec.refusal})",
            source=src,
            entry=Path(src).name,
            kind="illegal",
        )
    h = rec.hands[0]
    rules = rec.rule_set()
    wall = list(h.wall) if h.wall is not None else None
    r = (
        round_from_wall(rules, wall, h.seed, h.dealer, h.prevalent_wind)
        if wall is not None
        else Round(rules, h.seed, h.dealer, h.prevalent_wind)
    )
    if wall is None:
        wall = list(r.wall)
    moves = _moves_from_events(h.events)

    def err(problem: str, kind: str, line: int | None) -> DataError:
        return DataError(problem, source=src, entry=Path(src).name, kind=kind, line=line)

    decisions = _replay(r, moves, err)
    if r.result is None or list(r.result["deltas"]) != list(h.deltas):
        raise err("the replayed scores differ from the log's", "result", None)
    return [
        Game(
            src,
            Path(src).name,
            "botzone",
            rules,
            wall,
            h.dealer,
            h.prevalent_wind,
            decisions,
            dict(r.result),
            seed=h.seed,
        )
    ]


def _moves_from_events(events: list[dict[str, Any]]) -> list[_Move]:
    """The seats' actions of a hand's events (what the claims resolved to)."""
    out: list[_Move] = []
    for e in events:
        t = e.get("type")
        s = e.get("seat")
        if t == "discard":
            kind = "ready" if e.get("ready") else "discard"
            out.append(_Move(s, Action(kind, e["tile"]), text=f"seat {s} discards"))
        elif t in ("chow", "pung", "kong", "concealed_kong", "added_kong"):
            tile = e["low"] if t == "chow" else e["tile"]
            out.append(_Move(s, Action(t, tile), text=f"seat {s} {t}"))
        elif t == "win":
            out.append(_Move(s, Action("win"), text=f"seat {s} wins"))
    return out


# ---- IJCAI strong-AI match dumps ---------------------------------------------------------


def read_ijcai(
    path: str | os.PathLike[str], *, errors: str = "raise", limit: int | None = None
) -> list[Game] | DataSet:
    """The matches of an IJCAI strong-AI match dump (see docs/data.md), each replayed
    under ``mj.botzone.rules()`` (private walls: each player's wall is rebuilt from its
    deal and its draws). ``errors="raise"`` (default) raises the first game's
    :class:`~majiang.DataError`; ``"collect"`` returns a :class:`DataSet`. ``limit``: at
    most that many matches. :func:`iter_ijcai` reads the same one match at a time."""
    return _collect(itertools.islice(iter_ijcai(path), limit), errors)


def iter_ijcai(path: str | os.PathLike[str]) -> Iterator[Game | DataError]:
    """The matches of an IJCAI dump one at a time, read from the file as they come (a dump
    of a hundred thousand matches never sits in memory whole): a :class:`Game` for each
    match that replays, its :class:`~majiang.DataError` for each that does not. Feed it
    to :func:`write_shards` (which takes the games and skips nothing: filter the errors
    out first, and count them)."""
    p = Path(path)
    try:
        f = p.open(encoding="utf-8-sig")
    except OSError as e:
        raise DataError(f"cannot read: {e.strerror or e}", source=str(p)) from None
    with f:
        try:
            yield from _ijcai_games(f, str(p))
        except UnicodeDecodeError as e:
            raise DataError(f"not UTF-8 text: {e}", source=str(p)) from None


def _ijcai_blocks(lines: Iterable[str]) -> Iterator[tuple[int, list[str]]]:
    block: list[str] = []
    start = 1
    for k, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line:
            if block:
                yield start, block
                block = []
            continue
        if line.startswith("Match ") and block:
            yield start, block
            block = []
        if not block:
            start = k
        block.append(line)
    if block:
        yield start, block


def _ijcai_games(lines: Iterable[str], src: str) -> Iterator[Game | DataError]:
    from ..botzone import rules as botzone_rules

    rules = botzone_rules()
    for start, block in _ijcai_blocks(lines):
        entry = block[0] if block[0].startswith("Match ") else f"game at line {start}"

        def err(problem: str, kind: str, line: int | None, entry: str = entry) -> DataError:
            return DataError(problem, source=src, entry=entry, kind=kind, line=line)

        try:
            yield _ijcai_game(block, start, src, entry, rules, err)
        except DataError as e:
            yield e


def _ijcai_game(
    block: list[str], start: int, src: str, entry: str, rules: RuleSet, err: Any
) -> Game:
    if len(block) < 7 or not block[0].startswith("Match ") or not block[1].startswith("Wind "):
        raise err("a match starts with Match, Wind and four Deal lines", "format", start)
    try:
        quan = int(block[1].split()[1])
    except (IndexError, ValueError):
        raise err(f"bad Wind line {block[1]!r}", "format", start + 1) from None
    if not 0 <= quan <= 3:
        raise err(f"wind {quan} is not 0-3", "format", start + 1)
    deals: list[list[int]] = [[], [], [], []]
    draws: list[list[int]] = [[], [], [], []]
    moves: list[_Move] = []
    end: tuple[Any, ...] | None = None
    last_play: int | None = None
    prev_draw: int | None = None
    for k, line in enumerate(block[2:], start + 2):
        w = line.split()
        if w[0] == "Player":
            if len(w) < 4 or not w[1].isdigit() or int(w[1]) > 3:
                raise err(f"bad line {line!r}", "format", k)
            p, act = int(w[1]), w[2]
            if act == "Deal":
                if len(w) != 16 or deals[p]:
                    raise err(f"a Deal line holds 13 tiles, once per player: {line!r}", "format", k)
                deals[p] = [_tile(x, err, k) for x in w[3:]]
                continue
            t = _tile(w[3], err, k)
            ignored = w[4:]
            if act == "Draw":
                draws[p].append(t)
                moves.append(_Move(p, draw=t, line=k, text=line))
                prev_draw = p
                continue
            if act == "Play":
                a = Action("discard", t)
                last_play = t
            elif act == "Chi":
                if t % 9 in (0, 8) or t >= 27:
                    raise err(f"Chi names the middle tile of a chow: {line!r}", "format", k)
                a = Action("chow", t - 1)
            elif act == "Peng":
                a = Action("pung", t)
            elif act == "Gang":
                # An exposed kong on a discard; right after the player's own draw the
                # dump's Gang is a concealed kong.
                a = Action("concealed_kong" if prev_draw == p else "kong", t)
            elif act == "AnGang":
                a = Action("concealed_kong", t)
            elif act == "BuGang":
                a = Action("added_kong", t)
                last_play = t
            elif act == "Hu":
                a = Action("win")
                end = ("hu", p, k)
            else:
                raise err(f"unknown action {act!r}", "format", k)
            prev_draw = None
            moves.append(_Move(p, a, line=k, text=line))
            # Claims that lost to this one ("Ignore Player j Chi T5 ...").
            j = 0
            while j < len(ignored):
                if ignored[j] != "Ignore" or j + 3 >= len(ignored) or ignored[j + 1] != "Player":
                    raise err(f"bad Ignore clause in {line!r}", "format", k)
                q = ignored[j + 2]
                if not q.isdigit() or int(q) > 3:
                    raise err(f"bad Ignore clause in {line!r}", "format", k)
                qa, qt = ignored[j + 3], ignored[j + 4] if j + 4 < len(ignored) else None
                tt = _tile(qt, err, k) if qt else last_play
                claim = {
                    "Chi": lambda x: Action("chow", x - 1),
                    "Peng": lambda x: Action("pung", x),
                    "Gang": lambda x: Action("kong", x),
                    "Hu": lambda x: Action("win"),
                }.get(qa)
                if claim is None or tt is None:
                    raise err(f"bad Ignore clause in {line!r}", "format", k)
                moves.append(_Move(int(q), claim(tt), line=k, text=f"Ignore Player {q} {qa}"))
                j += 5 if qt else 4
        elif w[0] == "Fan":
            try:
                fan = int(w[1])
            except (IndexError, ValueError):
                raise err(f"bad Fan line {line!r}", "format", k) from None
            end = (*(end or ("hu", None, k)), fan)
        elif w[0] == "Huang":
            end = ("huang", None, k)
        elif w[0] == "Score":
            try:
                scores = [int(x) for x in w[1:]]
            except ValueError:
                raise err(f"bad Score line {line!r}", "format", k) from None
            if len(scores) != 4:
                raise err(f"a Score line holds four scores: {line!r}", "format", k)
            end = (*(end or ("?", None, k)), scores)
        else:
            raise err(f"unknown line {line!r}", "format", k)
    if any(len(d) != 13 for d in deals):
        raise err("every player needs a Deal line of 13 tiles", "format", start)
    if end is None or end[0] == "?":
        raise err("the match has no Hu or Huang with its Score", "format", start)
    # Each player's private wall, in majiang's order: its deal, then its draws, then the
    # tiles nobody drew (in code order).
    left = Counter({t: 4 for t in range(34)})
    for p in range(4):
        for t in deals[p] + draws[p]:
            left[t] -= 1
            if left[t] < 0:
                raise err(f"a fifth copy of tile {t} is dealt or drawn", "draw", start)
    rest = sorted(left.elements())
    wall: list[int] = []
    for p in range(4):
        mine = deals[p] + draws[p]
        if len(mine) > 34:
            raise err(f"player {p} draws more tiles than its wall holds", "draw", start)
        fill = 34 - len(mine)
        wall += mine + rest[:fill]
        rest = rest[fill:]
    try:
        r = round_from_wall(rules, wall, 0, 0, quan)
    except (InvalidHandError, RuleError, ValueError) as e:
        raise err(f"the wall cannot be dealt: {e}", "draw", start) from None
    decisions = _replay(r, moves, err)
    kind = end[0]
    end_scores = end[-1] if isinstance(end[-1], list) else None
    if kind == "huang":
        _check_result(r, err, winner=None, fan=None, scores=end_scores, self_draw=None, line=end[2])
    else:
        end_fan = end[3] if len(end) > 4 else None
        _check_result(
            r, err, winner=end[1], fan=end_fan, scores=end_scores, self_draw=None, line=end[2]
        )
    return Game(
        src,
        entry,
        "ijcai",
        rules,
        wall,
        0,
        quan,
        decisions,
        dict(r.result or {}),
        info={"match": block[0].split(maxsplit=1)[1]},
    )


# ---- human match files -------------------------------------------------------------------


def read_human(
    path: str | os.PathLike[str], *, errors: str = "raise", rules: Any = "gb"
) -> list[Game] | DataSet:
    """The hand of a human match file (or of every ``.txt`` file of a directory, in name
    order), replayed under `rules` (default ``gb``: 144 tiles with flowers, one shared
    wall). See docs/data.md for the format. ``errors`` as in :func:`read_ijcai`."""
    p = Path(path)
    rs = rules if isinstance(rules, RuleSet) else RuleSet(rules)
    files = sorted(p.glob("*.txt")) if p.is_dir() else [p]

    def games() -> Iterator[Game | DataError]:
        for f in files:
            try:
                yield _human_game(_read_text(f), str(f), rs)
            except DataError as e:
                yield e

    return _collect(games(), errors)


def _list(text: str, err: Any, k: int) -> list[str]:
    s = text.strip()
    if not (s.startswith("[") and s.endswith("]")):
        raise err(f"{text!r} is not a list of tiles", "format", k)
    return [x.strip().strip("'\"") for x in s[1:-1].split(",") if x.strip()]


def _human_game(text: str, src: str, rules: RuleSet) -> Game:
    entry = Path(src).name

    def err(problem: str, kind: str, line: int | None) -> DataError:
        return DataError(problem, source=src, entry=entry, kind=kind, line=line)

    lines = [ln.rstrip("\r\n") for ln in text.splitlines()]
    while lines and not lines[-1].strip():
        lines.pop()
    if len(lines) < 7:
        raise err("a match file has a name, a summary, four hands and the actions", "format", None)
    head = lines[1].split("\t")
    if len(head) < 4 or head[0] not in _WINDS_ZH:
        raise err(f"bad summary line {lines[1]!r}", "format", 2)
    wind = _WINDS_ZH[head[0]]
    fans = _list(head[2], err, 2)
    outcome = head[-1].strip()
    fan_total = 0
    for f in fans:
        name, _, v = f.partition("-")
        if v.strip().lstrip("-").isdigit():
            fan_total += int(v)
    hands: list[list[int]] = [[], [], [], []]
    dealer = None
    for k in range(2, 6):
        w = lines[k].split("\t")
        if len(w) < 2 or not w[0].strip().isdigit() or int(w[0]) > 3:
            raise err(f"bad hand line {lines[k]!r}", "format", k + 1)
        p = int(w[0])
        hands[p] = [_tile(x, err, k + 1) for x in _list(w[1], err, k + 1)]
        if len(hands[p]) == 14:
            if dealer is not None:
                raise err("two hands of 14 tiles", "format", k + 1)
            dealer = p
        elif len(hands[p]) != 13:
            raise err(f"a hand of {len(hands[p])} tiles", "format", k + 1)
    if dealer is None:
        raise err("no hand of 14 tiles (the dealer's)", "format", 3)
    draw_seq: list[tuple[bool, int]] = []
    moves: list[_Move] = []
    winner = None
    self_draw = None
    last_line = len(lines)
    pend_flower: list[int] = []
    for k in range(6, len(lines)):
        ln = k + 1
        w = lines[k].split("\t")
        if len(w) < 3 or not w[0].strip().isdigit() or int(w[0]) > 3:
            raise err(f"bad action line {lines[k]!r}", "format", ln)
        p, act = int(w[0]), w[1].strip()
        tiles = [_tile(x, err, ln) for x in _list(w[2], err, ln)]
        if not tiles:
            raise err(f"an action without tiles: {lines[k]!r}", "format", ln)
        text_ = lines[k].replace("\t", " ")
        if act in ("摸牌", "补花后摸牌", "杠后摸牌"):
            draw_seq.append((act != "摸牌", tiles[0]))
            # The engine replaces flowers by itself: a flower's replacement (补花后摸牌)
            # is checked through the hand that follows, a drawn flower not at all.
            checked = tiles[0] < 34 and act != "补花后摸牌"
            moves.append(_Move(p, draw=tiles[0] if checked else -1, line=ln, text=text_))
            continue
        if act == "补花":
            # A flower set aside: the engine does it by itself (no decision).
            pend_flower.append(tiles[0])
            continue
        if act == "打牌":
            a = Action("discard", tiles[0])
        elif act == "吃":
            if len(tiles) != 3:
                raise err(f"吃 takes the chow's three tiles: {lines[k]!r}", "format", ln)
            a = Action("chow", min(tiles))
        elif act == "碰":
            a = Action("pung", tiles[0])
        elif act == "明杠":
            a = Action("kong", tiles[0])
        elif act == "暗杠":
            a = Action("concealed_kong", tiles[0])
        elif act == "补杠":
            a = Action("added_kong", tiles[0])
        elif act in ("和牌", "自摸"):
            a = Action("win")
            winner = p
            last_line = ln
        else:
            raise err(f"unknown action {act!r}", "format", ln)
        moves.append(_Move(p, a, line=ln, text=text_))
    wall = _shared_wall(rules, hands, dealer, draw_seq, err)
    try:
        r = round_from_wall(rules, wall, 0, dealer, wind)
    except (InvalidHandError, RuleError, ValueError) as e:
        raise err(f"the wall cannot be dealt: {e}", "draw", 3) from None
    decisions = _replay(r, moves, err)
    if outcome == "荒庄":
        _check_result(r, err, winner=None, fan=None, scores=None, self_draw=None, line=last_line)
    else:
        if outcome == "自摸":
            self_draw = True
        elif outcome in ("点炮", "放炮", "抢杠"):
            self_draw = False
        _check_result(
            r,
            err,
            winner=winner,
            fan=fan_total or None,
            scores=None,
            self_draw=self_draw,
            line=last_line,
        )
    return Game(
        src,
        entry,
        "human",
        rules,
        wall,
        dealer,
        wind,
        decisions,
        dict(r.result or {}),
        info={"name": lines[0].strip(), "outcome": outcome, "fans": fans},
    )


def _shared_wall(
    rules: RuleSet, hands: list[list[int]], dealer: int, draws: list[tuple[bool, int]], err: Any
) -> list[int]:
    """A shared wall (in :attr:`majiang.Round.wall` order) that deals `hands` and gives
    `draws` (``(from the tail, tile)``, in the order they were drawn) as the engine's wall
    draws them: the head from position 53 on, the tail two stacks at a time from the end,
    each skipping what the other end took; the tiles nobody drew fill the rest."""
    flowers = bool(rules.options().get("flowers", False))
    n = 144 if flowers else 136
    order: list[int | None] = [None] * n
    left = Counter({t: 4 for t in range(34)})
    if flowers:
        left.update({t: 1 for t in range(34, 42)})

    def put(pos: int, t: int) -> None:
        left[t] -= 1
        if left[t] < 0:
            raise err(f"more copies of tile {t} dealt and drawn than the wall holds", "draw", 3)
        order[pos] = t

    for i in range(4):
        h = hands[(dealer + i) % 4]
        for r in range(3):
            for k in range(4):
                put(r * 16 + i * 4 + k, h[r * 4 + k])
        put(48 + i, h[12])
        if i == 0:
            put(52, h[13])
    head, tail = 53, 0
    for from_tail, t in draws:
        if from_tail:
            while True:
                pos = 2 * (n // 2 - 1 - tail // 2) + tail % 2
                tail += 1
                if pos < 53 or pos >= n:
                    raise err("more tiles drawn than the wall holds", "draw", None)
                if order[pos] is None:
                    break
        else:
            while head < n and order[head] is not None:
                head += 1
            if head >= n:
                raise err("more tiles drawn than the wall holds", "draw", None)
            pos = head
            head += 1
        put(pos, t)
    rest = iter(sorted(left.elements()))
    return [t if t is not None else next(rest) for t in order]


# ---- any format --------------------------------------------------------------------------


def read(path: str | os.PathLike[str], *, errors: str = "raise") -> list[Game] | DataSet:
    """Reads `path` with the reader its content calls for: a JSON object (a Botzone judge
    log), text starting ``Match`` (an IJCAI dump), or a tab-separated human match file; a
    directory is read as human match files."""
    p = Path(path)
    if p.is_dir():
        return read_human(p, errors=errors)
    head = _read_text(p)[:4096].lstrip()
    if head.startswith("{"):
        try:
            games: list[Game] = read_botzone(p)
        except DataError as e:
            if errors == "raise":
                raise
            return DataSet([], [e])
        return DataSet(games, []) if errors == "collect" else games
    if head.startswith("Match"):
        return read_ijcai(p, errors=errors)
    return read_human(p, errors=errors)


# ---- samples -----------------------------------------------------------------------------


@dataclass
class Samples:
    """Training arrays of decisions: ``observation`` ``(n, C, 34)`` uint8, ``action_mask`` ``(n,
    ENV_N_ACTIONS)`` uint8, ``action`` ``(n,)`` int16 (the index taken), ``seat`` ``(n,)``
    int8, ``score`` ``(n,)`` float32 (the seat's score change of the hand), ``game``
    ``(n,)`` int32 (the game's index in the input)."""

    observation: np.ndarray
    action_mask: np.ndarray
    action: np.ndarray
    seat: np.ndarray
    score: np.ndarray
    game: np.ndarray

    def __len__(self) -> int:
        return len(self.action)

    def arrays(self) -> dict[str, np.ndarray]:
        keys = ("observation", "action_mask", "action", "seat", "score", "game")
        return {k: getattr(self, k) for k in keys}


def _suit_maps(perm: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """The column and action-index maps of a suit permutation: suit s becomes perm[s]."""
    col = np.arange(34)
    for s in range(3):
        col[s * 9 : s * 9 + 9] = np.arange(perm[s] * 9, perm[s] * 9 + 9)
    from ..env import action_to_index, index_to_action

    act = np.arange(ENV_N_ACTIONS)
    for i in range(ENV_N_ACTIONS):
        a = index_to_action(i)
        if a.tile is not None and a.tile < 27:
            act[i] = action_to_index(Action(a.kind, int(col[a.tile])))
    return col, act


def samples(games: Iterable[Game], *, features: str = "v1", augment: bool = False) -> Samples:
    """Every decision of `games` as training arrays (see :class:`Samples`). With
    `augment`, each decision appears six times, once per order of the three suits (the
    planes' suit columns and the action's tile moved together; the honours stay)."""
    parts: list[tuple[np.ndarray, ...]] = []
    for gi, g in enumerate(games):
        seats = [s for s, _ in g.decisions]
        codes = [c for _, c in g.decisions]
        try:
            planes, mask, action, seat, deltas = replay_decisions(
                g.rules,
                g.wall,
                seats,
                codes,
                seed=g.seed,
                dealer=g.dealer,
                prevalent_wind=g.prevalent_wind,
                features=features,
            )
        except IllegalActionError as e:
            raise DataError(str(e), source=g.source, entry=g.entry, kind="illegal") from None
        score = np.asarray(deltas, np.float32)[seat.astype(np.int64)]
        parts.append((planes, mask, action, seat, score, np.full(len(action), gi, np.int32)))
    if not parts:
        c = 0
        return Samples(
            np.zeros((0, c, 34), np.uint8),
            np.zeros((0, ENV_N_ACTIONS), np.uint8),
            np.zeros(0, np.int16),
            np.zeros(0, np.int8),
            np.zeros(0, np.float32),
            np.zeros(0, np.int32),
        )
    cat = [np.concatenate(x) for x in zip(*parts, strict=False)]
    out = Samples(*cat)
    if not augment:
        return out
    ps, ms, acts = [out.observation], [out.action_mask], [out.action]
    for p0, p1, p2 in itertools.permutations(range(3)):
        if (p0, p1, p2) == (0, 1, 2):
            continue
        col, amap = _suit_maps((p0, p1, p2))
        inv = np.argsort(col)
        ps.append(out.observation[:, :, inv])
        minv = np.argsort(amap)
        ms.append(out.action_mask[:, minv])
        acts.append(amap[out.action.astype(np.int64)].astype(np.int16))
    k = 6
    return Samples(
        np.concatenate(ps),
        np.concatenate(ms),
        np.concatenate(acts),
        np.tile(out.seat, k),
        np.tile(out.score, k),
        np.tile(out.game, k),
    )


def write_shards(
    games: Iterable[Game],
    directory: str | os.PathLike[str],
    *,
    shard_decisions: int = 1 << 20,
    features: str = "v1",
    augment: bool = False,
) -> list[Path]:
    """Streams the samples of `games` into ``directory/shard-00000.npz`` ... (each at
    least `shard_decisions` decisions, the last smaller) and a ``manifest.json`` (the
    shards, their decisions, the games read); memory holds one shard at a time. Returns
    the shard paths."""
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    shards: list[Path] = []
    buf: list[Game] = []
    pending = 0
    counts: list[int] = []
    n_games = 0

    def flush() -> None:
        nonlocal buf, pending
        if not buf:
            return
        s = samples(buf, features=features, augment=augment)
        path = d / f"shard-{len(shards):05d}.npz"
        arrays: dict[str, Any] = s.arrays()
        np.savez(path, **arrays)
        shards.append(path)
        counts.append(len(s))
        buf, pending = [], 0

    for g in games:
        buf.append(g)
        n_games += 1
        pending += len(g.decisions) * (6 if augment else 1)
        if pending >= shard_decisions:
            flush()
    flush()
    manifest = {
        "shards": [p.name for p in shards],
        "decisions": counts,
        "games": n_games,
        "features": features,
        "augment": augment,
    }
    (d / "manifest.json").write_text(json.dumps(manifest, indent=1))
    return shards
