"""The ladder: pairwise duplicate figures, the rating fit, interruption and the CLI."""

from __future__ import annotations

import importlib
import json
import math
import subprocess
import sys

import numpy as np
import pytest

import majiang as mj
from majiang import _core

# The module (``mj.ladder`` is the function).
ladder_mod = importlib.import_module("majiang.ladder")

BOTS = ["random", "efficiency", "strong_lite"]


@pytest.fixture(scope="module")
def table() -> mj.LadderResult:
    return mj.ladder(BOTS, walls=6, seed=4, threads=2)


def test_table_shape_and_diagonal(table):
    n = len(BOTS)
    assert table.bots == BOTS and table.walls == 6 and table.rules == "gb"
    for a in (table.mean, table.low, table.high):
        assert a.shape == (n, n)
        assert np.isnan(np.diag(a)).all()
    off = ~np.eye(n, dtype=bool)
    assert np.isfinite(table.mean[off]).all()
    assert (table.low[off] <= table.mean[off]).all() and (table.mean[off] <= table.high[off]).all()
    assert table.complete and len(table.pairs()) == n * (n - 1)


def test_a_pair_is_the_lone_bots_duplicate_arena_figure(table):
    # efficiency alone against three strong_lite: A rotated through the four seats of
    # every wall, the four games of a wall averaged before the interval.
    games = mj.arena(["efficiency", "strong_lite", "strong_lite", "strong_lite"], hands=24, seed=4)
    assert (np.sort(games.seats[games.wall == 0][:, 0]) == [0, 1, 2, 3]).all()
    per_wall = np.array([games.scores[games.wall == w, 0].mean() for w in range(6)])
    assert table.mean[1, 2] == pytest.approx(per_wall.mean())
    half = 1.959964 * per_wall.std(ddof=1) / math.sqrt(6)
    assert table.high[1, 2] - table.mean[1, 2] == pytest.approx(half)
    # Zero-sum: the three strong_lite seats lost what efficiency won.
    assert games.scores.sum(axis=1).tolist() == [0] * len(games)


def test_the_ratings_fit_the_table_and_order_the_bots(table):
    r = table.ratings
    assert r[0] == 0.0  # random is the anchor
    assert r[1] > 0 and r[2] > 0
    # Efficiency beats random from either side of the table.
    assert table.mean[1, 0] > 0 > table.mean[0, 1]
    # With both orders played, the fit is the row means of the antisymmetric part.
    s = (np.nan_to_num(table.mean) - np.nan_to_num(table.mean).T) / 2
    fitted = s.mean(axis=1)
    assert np.allclose(r - r.mean(), fitted - fitted.mean())


def test_fit_ratings_recovers_known_ratings():
    truth = np.array([0.0, 4.0, 9.5, -2.0])
    names = ["random", "a", "b", "c"]
    mean = truth[:, None] - truth[None, :]
    np.fill_diagonal(mean, np.nan)
    assert np.allclose(mj.fit_ratings(names, mean), truth)
    # Without random the ratings sum to zero; a missing pair is simply left out.
    mean[1, 2] = np.nan
    got = mj.fit_ratings(["w", "x", "y", "z"], mean)
    assert np.allclose(got, truth - truth.mean())
    # A bot that played no pair has no rating.
    lone = np.full((3, 3), np.nan)
    lone[0, 1], lone[1, 0] = 2.0, -2.0
    got = mj.fit_ratings(["random", "p", "q"], lone)
    assert got[0] == 0.0 and got[1] == pytest.approx(-2.0) and math.isnan(got[2])


def test_same_seed_same_table_whatever_the_threads(table):
    again = mj.ladder(BOTS, walls=6, seed=4, threads=1)
    assert np.array_equal(again.mean, table.mean, equal_nan=True)
    assert np.array_equal(again.ratings, table.ratings)
    other = mj.ladder(BOTS[:2], walls=6, seed=5, threads=2)
    assert other.mean[1, 0] != table.mean[1, 0]


def test_default_bots_are_the_registry():
    names = _core.policy_names()
    seen = []

    def fake_arena(bots, **kw):
        seen.append(bots[0])
        raise KeyboardInterrupt

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(ladder_mod, "arena", fake_arena)
        with pytest.raises(KeyboardInterrupt):
            mj.ladder(walls=1)
    assert seen == [names[0]]


def test_interrupt_keeps_the_pairs_finished():
    real = ladder_mod.arena
    calls = []

    def stop_on_third(bots, **kw):
        calls.append(bots)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(bots, **kw)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(ladder_mod, "arena", stop_on_third)
        with pytest.raises(KeyboardInterrupt) as info:
            mj.ladder(BOTS, walls=2, seed=1)
    part = info.value.partial
    assert isinstance(part, mj.LadderResult) and not part.complete
    assert len(part.pairs()) == 2
    assert "interrupted" in part.format_table()


@pytest.mark.parametrize(
    ("bots", "walls", "message"),
    [
        (["random", "nope"], 2, "unknown bot"),
        (["random"], 2, "at least two"),
        (["random", "random"], 2, "only once"),
        (["random", "efficiency"], 0, "walls"),
    ],
)
def test_bad_arguments(bots, walls, message):
    with pytest.raises(ValueError, match=message):
        mj.ladder(bots, walls=walls)


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "majiang", "ladder", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_cli_prints_the_table_and_json():
    p = _cli("--bots", "random,efficiency", "--walls", "3", "--seed", "2", "-q")
    assert p.returncode == 0, p.stderr
    assert "3 walls per pair" in p.stdout and "rating" in p.stdout
    lines = p.stdout.splitlines()
    assert any(line.startswith("random ") for line in lines)
    p = _cli("--bots", "random,efficiency", "--walls", "3", "--seed", "2", "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["bots"] == ["random", "efficiency"] and out["hands_per_pair"] == 12
    assert out["ratings"]["random"] == 0.0 and out["ratings"]["efficiency"] > 0
    api = mj.ladder(["random", "efficiency"], walls=3, seed=2)
    assert out["pairs"][0]["mean"] == pytest.approx(api.mean[0, 1])


def test_cli_rejects_an_unknown_bot():
    p = _cli("--bots", "random,nope", "--walls", "1")
    assert p.returncode == 2 and "unknown bot" in p.stderr
