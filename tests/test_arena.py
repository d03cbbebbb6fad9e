"""arena(): duplicate seating, per-bot figures, the command line."""

import json

import numpy as np
import pytest

import majiang as mj
from majiang.cli import main


def test_duplicate_rotates_every_bot_through_every_seat():
    r = mj.arena(["efficiency", "random", "random", "random"], hands=200, seed=3)
    assert len(r) == 200
    assert (r.wall == np.arange(200) // 4).all()
    assert (r.seats[:, 0] == np.arange(200) % 4).all()
    for row in r.seats:
        assert sorted(row.tolist()) == [0, 1, 2, 3]
    assert (r.scores.sum(axis=1) == 0).all()
    # Rounded up to whole walls.
    assert len(mj.arena("random", hands=6, seed=1)) == 8


def test_efficiency_beats_random_with_a_confident_margin():
    r = mj.arena("efficiency,random,random,random", hands=800, seed=11)
    s = r.summary()
    assert [x["bot"] for x in s] == ["efficiency", "random", "random", "random"]
    eff = s[0]
    lo, hi = eff["ci95"]
    assert lo > 0 and lo <= eff["mean_score"] <= hi
    assert eff["win_rate"] > max(x["win_rate"] for x in s[1:])
    assert eff["deal_in_rate"] < min(x["deal_in_rate"] for x in s[1:])
    assert sum(x["mean_score"] for x in s) == pytest.approx(0, abs=1e-9)
    for x in s:
        assert 0 <= x["self_draw_rate"] <= x["win_rate"] <= 1
        assert x["draw_rate"] == s[0]["draw_rate"]
    assert eff["mean_fan"] >= 8


def test_same_seed_same_games_and_fixed_seats():
    a = mj.arena("efficiency,random,efficiency,random", hands=80, seed=5, threads=1)
    b = mj.arena("efficiency,random,efficiency,random", hands=80, seed=5, threads=2)
    assert all(np.array_equal(getattr(a, k), getattr(b, k)) for k in ("winner", "scores"))
    fixed = mj.arena("efficiency,random,efficiency,random", hands=10, seed=5, duplicate=False)
    assert len(fixed) == 10 and (fixed.seats == [0, 1, 2, 3]).all()


def test_bad_bots():
    with pytest.raises(ValueError, match="unknown bot"):
        mj.arena(["efficiency", "random", "random", "wizard"], hands=4)
    with pytest.raises(ValueError, match="hands"):
        mj.arena("random", hands=-4)


def test_cli_arena(capsys):
    assert main(["arena", "--bots", "efficiency,random,random,random", "--hands", "40", "-q"]) == 0
    text = capsys.readouterr().out
    assert "mean score" in text and "efficiency" in text
    assert main(["arena", "--hands", "8", "--seed", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hands"] == 8 and len(data["bots"]) == 4
    assert {"mean_score", "ci95", "win_rate", "deal_in_rate"} <= set(data["bots"][0])
