"""Observations and policies under random play: hypothesis drives rounds of every rule set
through random legal actions mixed with random action codes, and checks at every step
that the refused ones change nothing, that every seat's observation is consistent with
the table, and that every built-in policy answers each pending seat with a legal action.

Observations cannot be built by hand (``Observation()`` raises ``TypeError``): the only
way to reach a policy is through what a round shows, which is what this explores."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import majiang as mj
from majiang import _core

N_CODES = 1 << 12


def snapshot(r: mj.Round) -> tuple:
    views = [r.observation(s) for s in range(4)]
    return tuple(
        (v.phase, v.turn, tuple(v.counts), v.wall_remaining, tuple(v.discard_log)) for v in views
    )


def check_view(r: mj.Round, seat: int) -> None:
    v = r.observation(seat)
    assert v.seat == seat
    assert all(0 <= c <= 4 for c in v.counts)
    assert sum(v.counts) == len(v.hand) == v.hand_sizes[seat]
    melded = len(v.melds[seat]) + v.hidden_kongs[seat]
    assert melded <= 4
    # 13 - 3k tiles between turns, 14 - 3k on the seat's own turn.
    assert v.hand_sizes[seat] + 3 * melded in (13, 14)
    for other in range(4):
        assert v.hand_sizes[other] + 3 * (len(v.melds[other]) + v.hidden_kongs[other]) in (13, 14)
    assert all(0 <= c <= 4 for c in v.visible)
    if v.drawn is not None:
        assert v.counts[v.drawn] > 0
    pending = seat in r.pending
    assert bool(v.legal_actions) == pending
    assert len({a.code for a in v.legal_actions}) == len(v.legal_actions)


POLICIES = ["random", "efficiency", "strong_lite"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.sampled_from(["gb", "classic", "huainan"]),
    seed=st.integers(0, 2**64 - 1),
    choices=st.lists(st.integers(0, 2**16), min_size=20, max_size=120),
    junk=st.lists(st.integers(0, N_CODES), min_size=20, max_size=120),
)
def test_random_play_keeps_observations_and_policies_sound(rules, seed, choices, junk):
    r = mj.Round(rules, seed=seed)
    policies = [_core.Policy(name, rules=rules, seed=seed % 1000) for name in POLICIES]
    for pick, code in zip(choices, junk, strict=False):
        if r.is_over:
            break
        seat = r.pending[pick % len(r.pending)]
        for s in range(4):
            check_view(r, s)
        obs = r.observation(seat)
        legal = obs.legal_actions
        for p in policies:
            assert p.choose(obs) in legal
        # A random action code: refused without a trace, or legal.
        try:
            action = mj.Action.from_code(code)
        except mj.IllegalActionError:
            action = None
        if action is not None and action not in legal:
            before = snapshot(r)
            with pytest.raises(mj.IllegalActionError):
                r.apply(seat, action)
            assert snapshot(r) == before
        r.apply(seat, legal[pick % len(legal)])
    if r.is_over:
        assert sum(r.result["deltas"]) == 0
