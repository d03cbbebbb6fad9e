"""ExpertBot.value_of_options: every legal action valued in points by playouts."""

from __future__ import annotations

import json

import pytest

import majiang as mj
from majiang.bots import ExpertBot, OptionValues


def _turn(rules: str = "gb", seed: int = 5) -> mj.Observation:
    r = mj.Round(rules, seed)
    return r.observation(r.pending[0])


def _claim(seed: int = 1) -> mj.Observation:
    """The first claim window in which a seat may chow, pung or win."""
    r = mj.Round("gb", seed)
    bot = mj.bots.EfficiencyBot(seed=0)
    while not r.is_over:
        for s in r.pending:
            o = r.observation(s)
            if o.phase == "claim" and len(o.legal_actions) > 1:
                return o
        s = r.pending[0]
        r.apply(s, bot.act(r.observation(s)))
    raise AssertionError("no claim window")


def test_every_legal_action_is_valued_best_first_with_its_interval() -> None:
    o = _turn()
    v = ExpertBot(seed=3, samples=8).value_of_options(o)
    assert isinstance(v, OptionValues)
    assert sorted(map(str, (x.action for x in v))) == sorted(map(str, o.legal_actions))
    pts = [x.points for x in v]
    assert pts == sorted(pts, reverse=True)
    assert v.best.loss == 0
    for x in v:
        assert x.low <= x.points <= x.high
        assert x.loss == pytest.approx(v.best.points - x.points)
        assert x.std_err >= 0 and x.loss_se >= 0
    assert v.samples == 8 and v.playouts == 8 * len(o.legal_actions)
    assert sum(x.expert for x in v) == 1
    assert v.value_of(v.expert_action).expert
    assert "playouts" in v.method and "expert" in v.method
    d = json.loads(json.dumps(v.as_dict()))
    assert d["samples"] == 8 and len(d["options"]) == len(v)


def test_the_seed_fixes_the_values_and_the_bot_is_not_advanced() -> None:
    o = _turn(seed=9)
    bot = ExpertBot(seed=4, samples=6)
    before = bot.act(o)
    a = bot.value_of_options(o)
    assert bot.value_of_options(o) == a
    assert ExpertBot(seed=4, samples=6).value_of_options(o) == a
    assert ExpertBot(seed=5, samples=6).value_of_options(o) != a
    assert a.expert_action == ExpertBot(seed=4).act(o) == before


def test_a_claim_window_values_the_pass_and_each_claim() -> None:
    o = _claim()
    v = ExpertBot(seed=0, samples=4, playout="efficiency").value_of_options(o)
    kinds = {x.action.kind for x in v}
    assert "pass" in kinds and len(kinds) >= 2
    assert v.playout_bot == "efficiency"


def _win_offer() -> tuple[mj.Observation, mj.Action]:
    """The first observation (over a few dealt hands) that offers a win."""
    bot = mj.bots.EfficiencyBot(seed=0)
    for seed in range(40):
        r = mj.Round("gb", seed)
        while not r.is_over:
            for s in r.pending:
                o = r.observation(s)
                win = [a for a in o.legal_actions if a.kind == "win"]
                if win and len(o.legal_actions) > 1:
                    return o, win[0]
            s = r.pending[0]
            r.apply(s, bot.act(r.observation(s)))
    raise AssertionError("no win offered")


def test_a_win_is_worth_its_score() -> None:
    o, win = _win_offer()
    v = ExpertBot(samples=3, playout="efficiency").value_of_options(o)
    w = v.value_of(win)
    assert w.std_err == 0 and w.points > 0


def test_bad_arguments_and_huainan_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="samples"):
        ExpertBot(samples=1)
    with pytest.raises(ValueError, match="playout"):
        ExpertBot(playout="nobody")
    with pytest.raises(mj.RuleError, match="宝"):
        ExpertBot(samples=2).value_of_options(_turn("huainan", 1))
    with pytest.raises(TypeError):
        ExpertBot().value_of_options("not an observation")  # type: ignore[arg-type]
    with pytest.raises(mj.errors.InvalidArgumentError, match="samples"):
        mj._core.option_values(_turn(), 1)


def test_classic_is_valued() -> None:
    v = ExpertBot(seed=1, samples=3).value_of_options(_turn("classic", 3))
    assert len(v) >= 2


def test_the_gap_is_measured_from_the_experts_choice() -> None:
    v = ExpertBot(seed=2, samples=5, playout="efficiency").value_of_options(_turn(seed=4))
    ref = v.value_of(v.expert_action)
    assert ref.gap == 0 and ref.gap_se == 0
    for x in v:
        assert x.gap == pytest.approx(ref.points - x.points)


def test_private_walls_are_played_as_one_shared_wall() -> None:
    r = mj.Round(mj.RuleSet("botzone"), 3)
    v = ExpertBot(samples=2, playout="efficiency").value_of_options(r.observation(r.pending[0]))
    assert v.shared_wall and "one shared wall" in v.method
    assert not ExpertBot(samples=2).value_of_options(_turn()).shared_wall


def test_threads_do_not_change_the_values() -> None:
    o = _turn(seed=6)
    one = ExpertBot(seed=1, samples=5).value_of_options(o)
    assert ExpertBot(seed=1, samples=5, threads=2).value_of_options(o) == one
    assert ExpertBot(seed=1, samples=5, threads=7).value_of_options(o) == one
    with pytest.raises(ValueError, match="threads"):
        ExpertBot(threads=0)
    with pytest.raises(mj.errors.InvalidArgumentError, match="threads"):
        mj._core.option_values(o, 2, threads=0)
