"""The 126 verified hands of rules/gb-fan-examples.json and the invalid inputs of
rules/gb-fan-errors.json."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

import majiang as mj

# Copies of rules/gb-fan-examples.json and rules/gb-fan-errors.json.
RULES = Path(__file__).resolve().parent / "data"
EXAMPLES = json.loads((RULES / "gb-fan-examples.json").read_text(encoding="utf-8"))
ERRORS = json.loads((RULES / "gb-fan-errors.json").read_text(encoding="utf-8"))

# Inputs whose flags cannot all hold: majiang rejects them unless the
# correct_impossible_flags option asks for the reference's silent corrections. P36 (a
# kong replacement that is the last wall tile: 杠上开花 and 妙手回春) is a valid input.
IMPOSSIBLE_FLAGS = {"P33", "P34", "P35"}
LENIENT = mj.RuleSet("gb", correct_impossible_flags=True)


def _args(e: dict) -> tuple:
    return (
        e["pack"],
        e["hand"],
        e["win_tile"],
        e["flower_count"],
        e["self_drawn"],
        e["fourth_tile"],
        e["about_kong"],
        e["wall_last"],
        e["seat_wind"],
        e["prevalent_wind"],
    )


def _rows(r: mj.FanResult) -> list[list]:
    return [[f.points, f.count, f.name_zh, f.name] for f in r.fans]


@pytest.mark.parametrize("e", EXAMPLES, ids=[e["id"] for e in EXAMPLES])
def test_example_matches_reference(e):
    if e["id"] in IMPOSSIBLE_FLAGS:
        with pytest.raises(mj.InvalidHandError):
            mj.evaluate_fan_pymahjonggb(*_args(e))
        r = mj.evaluate_fan_pymahjonggb(*_args(e), rules=LENIENT)
    else:
        r = mj.evaluate_fan_pymahjonggb(*_args(e))
    assert _rows(r) == e["expected"], e["note"]
    assert r.total == e["total"]
    assert r.total_without_flowers == e["total_without_flowers"]
    assert r.meets_minimum == e["meets_8_fan_minimum"]


def test_examples_cover_every_fan():
    seen = {row[2] for e in EXAMPLES for row in e["expected"]}
    catalog = {f["name_zh"] for f in mj.fan_catalog() if f["id"] <= 82}
    assert catalog <= seen


BASE = {
    "pack": (),
    "hand": ("W1", "W2", "W3", "B4", "B5", "B6", "T7", "T8", "T9", "F2", "F2", "J1", "J1"),
    "winTile": "J1",
    "flowerCount": 0,
    "isSelfDrawn": False,
    "is4thTile": False,
    "isAboutKong": False,
    "isWallLast": False,
    "seatWind": 0,
    "prevalentWind": 0,
}

# Python-typing errors of the reference's C binding (a list where it wants a tuple): the
# same values in a list are valid input here.
TYPE_ONLY = {"pack passed as list", "hand passed as list", "pack element is a list"}


def _call(kw: dict, rules="gb"):
    return mj.evaluate_fan_pymahjonggb(
        kw["pack"],
        kw["hand"],
        kw["winTile"],
        kw["flowerCount"],
        kw["isSelfDrawn"],
        kw["is4thTile"],
        kw["isAboutKong"],
        kw["isWallLast"],
        kw["seatWind"],
        kw["prevalentWind"],
        rules=rules,
    )


@pytest.mark.parametrize("case", ERRORS, ids=[c["case"] for c in ERRORS])
def test_invalid_input_is_rejected(case):
    if case["override"] == "drop trailing args":
        with pytest.raises(TypeError):
            mj.evaluate_fan_pymahjonggb((), BASE["hand"], "J1", 0)  # type: ignore[call-arg]
        return
    kw = dict(BASE)
    kw.update(ast.literal_eval(case["override"]))
    if case["case"] in TYPE_ONLY:
        fixed = {k: [list(p) for p in v] if k == "pack" else v for k, v in kw.items()}
        as_tuples = {**fixed, "pack": tuple(map(tuple, fixed["pack"]))}
        assert _rows(_call(fixed)) == _rows(_call(as_tuples))
        return
    if case.get("message") == "ERROR_NOT_WIN":
        with pytest.raises(mj.NotWinningError, match="does not form a winning hand"):
            _call(kw)
        return
    with pytest.raises(mj.InvalidHandError) as err:
        _call(kw)
    assert len(str(err.value)) > 10


def test_error_messages_name_the_problem():
    kw = dict(BASE, hand=("W1",) * 4 + BASE["hand"][4:], winTile="W1")
    with pytest.raises(mj.InvalidHandError, match="5 copies of 1m"):
        _call(kw)
    with pytest.raises(mj.InvalidHandError, match="seat_wind 7"):
        _call(dict(BASE, seatWind=7))
    with pytest.raises(mj.InvalidHandError, match="flowers"):
        _call(dict(BASE, flowerCount=9))
    with pytest.raises(mj.InvalidHandError, match="CHI F2"):
        _call(dict(BASE, pack=(("CHI", "F2", 1),), hand=BASE["hand"][3:]))
    with pytest.raises(mj.InvalidHandError, match="CHI W9"):
        _call(dict(BASE, pack=(("CHI", "W9", 1),), hand=BASE["hand"][3:]))
    with pytest.raises(mj.InvalidHandError, match="'H1'"):
        _call(dict(BASE, winTile="H1"))
