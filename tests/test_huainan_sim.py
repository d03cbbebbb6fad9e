"""simulate(rules="huainan"): the wild-aware efficiency policy, invariants, determinism."""

import numpy as np

import majiang as mj


def test_huainan_simulate_is_deterministic_and_zero_sum():
    a = mj.simulate(400, rules="huainan", bots="efficiency", seed=11, threads=1)
    b = mj.simulate(400, rules="huainan", bots="efficiency", seed=11, threads=2)
    assert a.equals(b)
    assert (a.scores.sum(axis=1) == 0).all()
    won = a.winner >= 0
    assert won.mean() > 0.6
    rows = np.flatnonzero(won)
    assert (a.scores[rows, a.winner[rows]] > 0).all()
    assert (a.discarder[~won] == -1).all()


def test_efficiency_beats_random_in_huainan():
    eff = mj.simulate(300, rules="huainan", bots="efficiency,random,random,random", seed=3)
    s = eff.scores.sum(axis=0)
    assert s[0] > max(s[1:])
