"""The event schema, declared once in Rust (``rust/round/events.rs``) and exported as
``_core.event_schema()``: every event the engine emits is in it, the dict and JSON writers
write exactly its fields in its order with values of its types, and the record reader
checks record lines against it."""

from __future__ import annotations

import hashlib
import json
import random
import re
from pathlib import Path

import pytest

import majiang as mj
from majiang import _core, record

SCHEMA = _core.event_schema()
TYPES = _core.event_field_types()


class Rash:
    """Random play that sometimes declares a win it does not have (a penalty under
    mcr_1998) and takes every kong and ready offered (kongs, robbed kongs, 报听)."""

    def __init__(self, seed: int, false_wins: bool) -> None:
        self.rng = random.Random(seed)
        self.false_wins = false_wins

    def act(self, obs):
        legal = obs.legal_actions
        declare = obs.phase == "turn" and obs.drawn is not None and not obs.barred[obs.seat]
        if self.false_wins and declare and mj.Action("win") not in legal:
            if self.rng.random() < 0.02:
                return mj.Action("win")
        eager = [
            a for a in legal if a.kind in ("win", "kong", "concealed_kong", "added_kong", "ready")
        ]
        return self.rng.choice(eager or legal)


def holds(t: dict, v: object, *, hidden: bool) -> bool:
    """Whether ``v`` is a value of field type ``t`` (``None`` stands for a hidden tile in
    a seat's view)."""
    kind = t["value"]
    if kind == "int":
        return (v is None and hidden) or (type(v) is int and t["min"] <= v <= t["max"])
    if kind == "ints":
        return (
            type(v) is list
            and len(v) in t["lengths"]
            and all(
                (x is None and hidden) or (type(x) is int and t["min"] <= x <= t["max"]) for x in v
            )
        )
    if kind == "bool":
        return type(v) is bool
    return type(v) is str and v in t["names"]


def played_rounds():
    """Hands of every rule set and the penalty rules, played to the end."""
    specs = [
        (mj.RuleSet("gb", penalty_mode="mcr_1998"), 60, True),
        (mj.RuleSet("classic"), 40, False),
        (mj.RuleSet("huainan"), 40, False),
        (mj.botzone.rules(), 20, False),
    ]
    for rules, n, false_wins in specs:
        for i in range(n):
            r = mj.Round(rules, 1000 + i, i % 4, (i // 4) % 4)
            bots = [Rash(100 * i + s, false_wins) for s in range(4)]
            while r.pending:
                s = min(r.pending)
                r.apply(s, bots[s].act(r.observation(s)))
            yield r


@pytest.fixture(scope="module")
def rounds():
    return list(played_rounds())


def test_every_kind_the_engine_emits_is_in_the_schema_and_every_kind_is_emitted(rounds):
    seen = {e["type"] for r in rounds for e in r.events()}
    assert seen <= set(SCHEMA), seen - set(SCHEMA)
    assert seen == set(SCHEMA), set(SCHEMA) - seen


def test_the_writers_write_the_schema_fields_in_order_with_their_types(rounds):
    checked = 0
    for r in rounds:
        full = r.events()
        for viewer in (None, 0, 2):
            for e in r.events(seat=viewer) if viewer is not None else full:
                fields = SCHEMA[e["type"]]
                assert list(e) == ["type", *fields], e
                for name, t in fields.items():
                    assert holds(TYPES[t], e[name], hidden=viewer is not None), (name, e)
                checked += 1
        # The JSON writer writes the same objects, keys in the same order.
        texts = r.events_json()
        assert [json.loads(t) for t in texts] == full
        for t, e in zip(texts, full, strict=True):
            assert list(json.loads(t)) == list(e)
    assert checked > 10_000


def test_every_field_type_is_described_and_used():
    used = {t for fields in SCHEMA.values() for t in fields.values()}
    assert used == set(TYPES)
    for t in TYPES.values():
        assert t["value"] in ("int", "ints", "bool", "name")


def test_the_record_reader_checks_against_the_schema():
    assert record._EVENTS == SCHEMA
    assert set(record._FAST) == set(TYPES)
    rec = mj.Game("gb", bots=[mj.bots.FirstBot()] * 4, seed=3, hands=1).play()
    lines = rec.to_json().splitlines()
    at = next(i for i, ln in enumerate(lines) if json.loads(ln).get("type") == "discard")
    line = json.loads(lines[at])

    def with_line(obj: dict) -> str:
        """The record with line ``at`` replaced and the trailer's digest redone."""
        body = [*lines[:at], json.dumps(obj, separators=(",", ":")), *lines[at + 1 : -1]]
        trailer = json.loads(lines[-1])
        assert trailer["type"] == "match_end"
        h = hashlib.sha256()
        for x in body:
            h.update(x.encode() + b"\n")
        trailer["digest"] = "sha256:" + h.hexdigest()
        return "\n".join([*body, json.dumps(trailer, sort_keys=True)]) + "\n"

    assert mj.MatchRecord.from_json(with_line(line)).hands[0].events == rec.hands[0].events
    for bad, problem in [
        ({**line, "extra": 1}, "unknown fields 'extra'"),
        ({k: v for k, v in line.items() if k != "ready"}, "has no 'ready'"),
        ({**line, "ready": 1}, "'ready' must be true or false"),
        ({**line, "seat": 4}, "'seat'"),
        ({**line, "tile": 42}, "'tile'"),
    ]:
        with pytest.raises(mj.RecordError, match=problem):
            mj.MatchRecord.from_json(with_line(bad))


def test_the_events_page_shows_the_schema():
    """docs/events.md lists every kind with its fields and types as the engine declares
    them, and every field type."""
    page = (Path(__file__).resolve().parent.parent / "docs" / "events.md").read_text("utf-8")
    rows = {}
    for line in page.splitlines():
        m = re.match(r"\| `(\w+)` \| (.*) \|$", line)
        if m:
            rows[m.group(1)] = re.findall(r"`(\w+)`: (\w+)", m.group(2))
    assert rows == {kind: list(fields.items()) for kind, fields in SCHEMA.items()}
    described = set(re.findall(r"^\| (\w+) \| ", page, re.M)) - {"type", "field"}
    assert described == set(TYPES)
