"""Errors by kind: each bad input raises the exception of its kind, naming the argument.

- malformed tiles, melds or hand flags: ``InvalidHandError``;
- an unknown rule set, option or option value: ``RuleError``;
- an action that is not legal now: ``IllegalActionError``;
- any other argument out of range (seat, seed, threads, budget, counts, bot names): a
  plain ``ValueError``; an argument of the wrong type: ``TypeError``.
"""

from __future__ import annotations

import pytest

import majiang as mj
from majiang import _core
from majiang.bots import EfficiencyBot, FirstBot, RandomBot, StrongBot

WIN = "234m567m345p78s11z"


def _fan_result() -> mj.FanResult:
    return mj.evaluate_fan(WIN, "6s", rules=mj.RuleSet("classic", min_fan=1))


def _waiting_seat_observation() -> mj.Observation:
    """An observation of a seat with nothing to decide."""
    r = mj.Round("gb", seed=1)
    idle = next(s for s in range(4) if s not in r.pending)
    return r.observation(idle)


@pytest.mark.parametrize(
    "call",
    [
        lambda: mj.shanten("123x"),
        lambda: mj.shanten([0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8]),
        lambda: mj.shanten("123m", melds="123m"),
        lambda: mj.waits(object()),
        lambda: mj.Round("gb", hands=["123m", "", "", ""]),
        lambda: mj.Action("discard", "8z"),
        lambda: mj.shanten_batch("x"),
    ],
    ids=["text", "fifth-copy", "melds", "object", "round-hands", "action-tile", "batch"],
)
def test_bad_tiles_raise_invalid_hand_error(call) -> None:
    with pytest.raises(mj.InvalidHandError):
        call()


@pytest.mark.parametrize(
    "call",
    [
        lambda: mj.RuleSet("riichi"),
        lambda: mj.RuleSet("gb", no_such_option=1),
        lambda: mj.Round("riichi"),
        lambda: mj.Match("riichi"),
        lambda: mj.shanten("123m456p789s1112z", wild="1m"),
        lambda: _core.Policy("efficiency", rules="riichi"),
        lambda: _core.StrongPolicy(rules="riichi"),
        lambda: mj.evaluate_fan("234m567m345p78s11z", "6s", rules="huainan"),
    ],
    ids=["ruleset", "option", "round", "match", "wild", "policy", "strong", "fan-huainan"],
)
def test_bad_rules_raise_rule_error(call) -> None:
    with pytest.raises(mj.RuleError):
        call()


def test_illegal_actions_raise_illegal_action_error() -> None:
    r = mj.Round("gb", seed=1)
    seat = r.pending[0]
    with pytest.raises(mj.IllegalActionError, match="not legal"):
        r.apply(seat, mj.Action("win"))
    with pytest.raises(mj.IllegalActionError, match="unknown action kind"):
        mj.Action("riichi")
    with pytest.raises(mj.IllegalActionError, match="not an action code"):
        mj.Action.from_code(10_000)
    m = mj.Match("gb", seed=1)
    with pytest.raises(mj.IllegalActionError, match="not over"):
        m.finish_hand(m.start_hand())
    idle = _waiting_seat_observation()
    for bot in (
        EfficiencyBot(),
        StrongBot(time_cap=False),
        RandomBot(seed=1),
        FirstBot(),
    ):
        with pytest.raises(mj.IllegalActionError, match="no legal action"):
            bot.act(idle)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: mj.Round("gb").observation(4), "seat must be a seat, 0-3, got 4"),
        (lambda: mj.Round("gb").legal_actions(-1), "seat must be"),
        (lambda: mj.Round("gb", seed=1).apply(7, mj.Action("pass")), "seat must be"),
        (lambda: mj.Round("gb").hand(4), "seat must be"),
        (lambda: mj.Round("gb").events(seat=5), "seat must be"),
        (lambda: mj.Round("gb", dealer=4), "dealer must be a seat"),
        (lambda: mj.Round("gb", prevalent_wind=4), "prevalent_wind"),
        (lambda: mj.Round("gb", seed=-1), "seed must be"),
        (lambda: mj.Round("gb").events(since=-1), "since must be"),
        (lambda: mj.Match("gb", seed=2**64), "seed must be"),
        (lambda: mj.Match("gb", hands=0), "hands must be"),
        (lambda: mj.wind_name(4), "wind must be"),
        (lambda: _core.Policy("genius"), "unknown bot"),
        (lambda: _core.Policy("efficiency", seed=-1), "seed must be"),
        (lambda: _core.Policy("efficiency").reseed(2**64), "seed must be"),
        (lambda: _core.StrongPolicy(budget_ms=-1), "budget_ms"),
        (lambda: _core.StrongPolicy(rollouts=-1), "rollouts"),
        (lambda: _core.StrongPolicy(seed=-5), "seed must be"),
        (lambda: _core.simulate_hands(1, rules="gb", bots="efficiency", threads=0), "threads"),
        (lambda: _core.simulate_hands(-1, rules="gb", bots="efficiency"), "n_hands"),
        (lambda: _core.simulate_hands(1, rules="gb", bots=["random"] * 3), "bots"),
        (lambda: _core.simulate_hands(1, rules="gb", bots="genius"), "unknown bot"),
        (lambda: _fan_result().count("no such fan"), "no fan named"),
        (lambda: _fan_result().count(99), "fan id must be 1-83"),
    ],
)
def test_other_bad_arguments_raise_value_error(call, match: str) -> None:
    with pytest.raises(ValueError, match=match) as e:
        call()
    assert type(e.value) is ValueError, type(e.value)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: _core.Policy("efficiency").choose(object()), "majiang.Observation"),
        (lambda: _core.Policy("random").choose({"legal_actions": []}), "majiang.Observation"),
        (lambda: _core.StrongPolicy().choose(object()), "majiang.Observation"),
        (lambda: EfficiencyBot().act("observation"), "majiang.Observation"),
        (lambda: mj.Round("gb", seed=1).apply(0, "discard 5p"), "majiang.Action"),
        (lambda: mj.shanten("123m456p789s1112z", rules=5), "rules"),
        (lambda: mj.Round(5), "rules"),
        (lambda: mj.evaluate_fan(WIN, "6s", rules=1.5), "rules"),
        (lambda: _fan_result().count(1.5), "fan must be a name or an id"),
        (lambda: _core.simulate_hands(1, rules="gb", bots=3), "bots"),
        (lambda: mj.Round("gb", seed="x"), "seed"),
    ],
)
def test_wrong_types_raise_type_error(call, match: str) -> None:
    with pytest.raises(TypeError, match=match):
        call()


def test_a_policy_never_plays_an_action_it_did_not_choose() -> None:
    """``choose`` returns the policy's own choice among the legal actions (the shared
    Action object), never a stand-in such as the first legal action."""
    r = mj.Round("gb", seed=3)
    p = _core.Policy("efficiency", seed=0)
    chosen = set()
    while r.pending:
        for s in r.pending:
            obs = r.observation(s)
            a = p.choose(obs)
            assert any(a is x for x in obs.legal_actions)
            if len(obs.legal_actions) > 1:
                chosen.add(obs.legal_actions.index(a))
            r.apply(s, a)
    assert len(chosen) > 1
