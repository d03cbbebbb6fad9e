"""The expert policy in huainan (``HuainanStrongPolicy``): legal, complete and deterministic
Huainan hands, driven from Rust (arena) and from Python (observations)."""

import numpy as np

import majiang as mj
from majiang import _core

BOTS = ["expert", "efficiency", "efficiency", "efficiency"]


def test_registered():
    assert _core.Policy("expert", rules="huainan").name == "expert"


def test_arena_hands_are_complete_and_deterministic():
    a = mj.arena(BOTS, hands=48, seed=7, rules="huainan", threads=1)
    b = mj.arena(BOTS, hands=48, seed=7, rules="huainan", threads=2)
    assert len(a) == 48
    assert np.array_equal(a.scores, b.scores)
    assert np.array_equal(a.winner, b.winner)
    # Zero-sum hands, and the expert won some of them.
    assert (a.scores.sum(axis=1) == 0).all()
    assert (a.winner == 0).sum() > 0
    c = mj.arena(BOTS, hands=48, seed=8, rules="huainan", threads=1)
    assert not np.array_equal(a.scores, c.scores)


def _play(rules, hands, seed):
    """Hands driven from Python, the expert in every seat: its choices, each checked
    against the legal actions, and the results."""
    bot = _core.Policy("expert", rules=rules, seed=seed)
    choices, results = [], []
    for k in range(hands):
        bot.reseed(seed + k)
        r = mj.Round(rules, seed=seed + k, dealer=k % 4)
        while r.pending:
            for s in r.pending:
                obs = r.observation(s)
                a = bot.choose(obs)
                assert a in obs.legal_actions
                choices.append(str(a))
                r.apply(s, a)
        assert r.result is not None
        results.append(r.result["deltas"])
    return choices, results


def test_python_driven_huainan_hands_are_legal_and_repeat():
    choices, results = _play("huainan", 12, 100)
    assert len(choices) > 12 * 20
    assert any(any(d) for d in results)
    assert _play("huainan", 12, 100) == (choices, results)
