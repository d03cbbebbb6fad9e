"""Game records: JSON lines, loading, and replay through the engine.

A record is JSON lines:

1. a header: ``{"type": "header", "format": "majiang-record", "version": 1, "rules": "gb",
   "options": {...}, "seed": S, "hands": 16, "players": [...]}``;
2. per hand: ``{"type": "hand", "hand": i, "seed": ..., "dealer": ..., "prevalent_wind":
   ..., "scores": [...]}``, then one line per engine event (``dice``, ``deal``, ``bao``
   (huainan, after the deal: ``throw``, ``indicator`` and the 宝 ``tile``), ``draw``,
   ``flower``, ``discard``, ``chow``, ``pung``, ``kong``, ``concealed_kong``,
   ``added_kong``, ``win``, ``penalty``, ``exhaustive_draw``; each with ``"hand": i``),
   then ``{"type": "result", "hand": i, ...}`` with the winners, their fans and the
   payments, and the scores after the hand;
3. ``{"type": "match_end", "final_scores": [...]}``.

Tiles are codes (0-33, flowers 34-41). Each hand's wall comes from its seed, so
:func:`replay_record` re-plays every hand through the engine, taking each decision from
the recorded events, and checks that the engine produces exactly the recorded events.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ._core import Action, Round, RuleSet

__all__ = ["FORMAT", "VERSION", "HandRecord", "MatchRecord", "ReplayMismatchError", "replay_record"]

FORMAT = "majiang-record"
VERSION = 1


class ReplayMismatchError(ValueError):
    """Replaying a record through the engine did not reproduce it."""


@dataclass
class HandRecord:
    """One hand of a match.

    ``events`` are the engine's events as dicts (full information); ``result`` is the
    engine's result dict (``exhaustive``, ``deltas``, ``penalties``, ``wins`` with fans).
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


@dataclass
class MatchRecord:
    """A whole match: the rules, the seed, the players and every hand."""

    rules: str
    options: dict[str, Any]
    seed: int
    n_hands: int
    players: list[str]
    hands: list[HandRecord] = field(default_factory=list)
    final_scores: list[int] = field(default_factory=lambda: [0, 0, 0, 0])

    def rule_set(self) -> RuleSet:
        """The :class:`~majiang.RuleSet` the match was played with."""
        return RuleSet(self.rules, **self.options)

    def to_json(self) -> str:
        """The record as JSON lines (see the module documentation)."""
        header = {
            "type": "header",
            "format": FORMAT,
            "version": VERSION,
            "rules": self.rules,
            "options": self.options,
            "seed": self.seed,
            "hands": self.n_hands,
            "players": self.players,
        }
        lines = [json.dumps(header, ensure_ascii=False, sort_keys=True)]
        for h in self.hands:
            start = {
                "type": "hand",
                "hand": h.index,
                "seed": h.seed,
                "dealer": h.dealer,
                "prevalent_wind": h.prevalent_wind,
                "scores": h.scores_before,
            }
            lines.append(json.dumps(start, sort_keys=True))
            prefix = f'{{"hand":{h.index},'
            lines.extend(prefix + e[1:] for e in h.events_json)
            end = {"type": "result", "hand": h.index, "scores": h.scores_after, **h.result}
            lines.append(json.dumps(end, ensure_ascii=False, sort_keys=True))
        lines.append(json.dumps({"type": "match_end", "final_scores": self.final_scores}))
        return "\n".join(lines) + "\n"

    @classmethod
    def from_json(cls, text: str) -> MatchRecord:
        """Loads a record written by :meth:`to_json`; raises ``ValueError`` naming the
        line when it is not one."""
        rec: MatchRecord | None = None
        current: HandRecord | None = None
        for no, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as e:
                raise ValueError(f"line {no} of the record is not JSON: {e}") from None
            kind = obj.get("type") if isinstance(obj, dict) else None
            if rec is None:
                if kind != "header" or obj.get("format") != FORMAT:
                    raise ValueError(f"line {no}: a record starts with a {FORMAT} header")
                if obj.get("version") != VERSION:
                    raise ValueError(
                        f"line {no}: record version {obj.get('version')} (this reads {VERSION})"
                    )
                rec = cls(
                    rules=obj["rules"],
                    options=obj["options"],
                    seed=obj["seed"],
                    n_hands=obj["hands"],
                    players=obj["players"],
                )
                continue
            if kind == "hand":
                current = HandRecord(
                    index=obj["hand"],
                    seed=obj["seed"],
                    dealer=obj["dealer"],
                    prevalent_wind=obj["prevalent_wind"],
                    scores_before=obj["scores"],
                    result={},
                    scores_after=[],
                )
                current._events = []
                rec.hands.append(current)
            elif kind == "result":
                if current is None:
                    raise ValueError(f"line {no}: a result before any hand")
                res = dict(obj)
                for k in ("type", "hand", "scores"):
                    res.pop(k, None)
                current.result = res
                current.scores_after = obj["scores"]
                current = None
            elif kind == "match_end":
                rec.final_scores = obj["final_scores"]
            elif kind is None:
                raise ValueError(f"line {no}: an event without a type")
            else:
                if current is None:
                    raise ValueError(f"line {no}: a {kind!r} event outside a hand")
                ev = dict(obj)
                ev.pop("hand", None)
                assert current._events is not None
                current._events.append(ev)
                current.events_json.append(json.dumps(ev, separators=(",", ":")))
        if rec is None:
            raise ValueError("the record is empty")
        return rec

    def replay(self) -> None:
        """Re-plays every hand through the engine; raises
        :class:`ReplayMismatchError` at the first difference."""
        replay_record(self)


def _decision(r: Round, seat: int, nxt: dict[str, Any], wins: set[int]) -> Action:
    """The action `seat` must have taken for the engine to produce the recorded `nxt`."""
    kind = nxt.get("type")
    if r.phase == "turn":
        if kind == "discard":
            return Action("ready" if nxt.get("ready") else "discard", nxt["tile"])
        if kind in ("concealed_kong", "added_kong"):
            return Action(kind, nxt["tile"])
        if kind in ("win", "penalty"):
            return Action("win")
        raise ReplayMismatchError(f"seat {seat} is to act on its turn but the record shows {nxt}")
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


def replay_hand(rules: RuleSet, hand: HandRecord) -> Round:
    """Re-plays one hand through the engine and checks every event and the result."""
    r = Round(rules, hand.seed, hand.dealer, hand.prevalent_wind, scores=hand.scores_before)
    recorded = hand.events
    k = 0

    def check_new() -> None:
        nonlocal k
        for line in r.events_json(k):
            got = json.loads(line)
            if k >= len(recorded) or got != recorded[k]:
                want = recorded[k] if k < len(recorded) else "the end of the hand"
                raise ReplayMismatchError(
                    f"hand {hand.index}, event {k}: the engine produced {got}, "
                    f"the record has {want}"
                )
            k += 1

    check_new()
    while not r.is_over:
        if k >= len(recorded):
            raise ReplayMismatchError(
                f"hand {hand.index}: the record ends while seats {r.pending} must act"
            )
        nxt = recorded[k]
        if nxt.get("type") == "penalty":
            r.apply(nxt["seat"], Action("win"))
            check_new()
            continue
        wins = set()
        j = k
        while j < len(recorded) and recorded[j].get("type") == "win":
            wins.add(recorded[j]["seat"])
            j += 1
        for s in r.pending:
            r.apply(s, _decision(r, s, nxt, wins))
        check_new()
    if k != len(recorded):
        raise ReplayMismatchError(
            f"hand {hand.index}: the engine ended at event {k} of {len(recorded)}"
        )
    if _norm(r.result) != _norm(hand.result):
        raise ReplayMismatchError(
            f"hand {hand.index}: result {r.result} differs from the record {hand.result}"
        )
    return r


def replay_record(record: MatchRecord) -> None:
    """Re-plays every hand of `record` through the engine and checks that it reproduces
    every recorded event, result and score."""
    rules = record.rule_set()
    scores = [0, 0, 0, 0]
    for h in record.hands:
        if list(h.scores_before) != scores:
            raise ReplayMismatchError(
                f"hand {h.index}: scores before {h.scores_before}, expected {scores}"
            )
        replay_hand(rules, h)
        scores = [a + b for a, b in zip(scores, h.result["deltas"], strict=True)]
        if list(h.scores_after) != scores:
            raise ReplayMismatchError(
                f"hand {h.index}: scores after {h.scores_after}, expected {scores}"
            )
    if list(record.final_scores) != scores:
        raise ReplayMismatchError(f"final scores {record.final_scores}, expected {scores}")
