"""The conformance suite over the compiled registry: every registered rule set and preset
is held to the same promises (the Rust side, rust/rules/conformance.rs, also runs the
tests' own ``toy`` rule set through them).

- its docs page exists and its registry entry agrees with its ``RuleSet``;
- hands played in Rust by every built-in policy pass every state and result check, and
  the scores of each hand sum to zero;
- a match played from Python by bots built without ``rules=`` records the rules it was
  played by, and the record and the rules round-trip through JSON and pickles, and replay;
- the observation of every seat knows the rules.

That the Python bots decide as the Rust policies do without ``rules=`` is
tests/test_bots_parity.py, over the same names.
"""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np
import pytest

import majiang as mj
from majiang import _core
from majiang.bots import EfficiencyBot, ExpertBot, FirstBot, RandomBot

NAMES = list(mj.rules.NAMES)
ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name", NAMES)
def test_the_entry_is_documented_and_agrees_with_its_rule_set(name: str) -> None:
    e = mj.rules.entry(name)
    assert (ROOT / e["docs"]).is_file(), f"{name}: no page {e['docs']}"
    rs = mj.RuleSet(name)
    if name in mj.rules.PRESETS:
        assert rs.preset == name and rs.name == e["rule_set"]
        assert all(rs.options()[k] == v for k, v in e["options"].items())
        base = mj.rules.entry(e["rule_set"])
    else:
        assert rs.name == name and rs.preset is None
        base = e
    assert rs.unit == base["unit"] and tuple(rs.forms) == base["forms"]
    assert {r["group"] for r in mj.RuleSet.option_table(name).values()} == set(base["groups"])


@pytest.mark.parametrize("bots", ["random", "efficiency", "strong_lite"])
@pytest.mark.parametrize("name", NAMES)
def test_hands_pass_every_check_and_add_up(name: str, bots: str) -> None:
    n = 40 if bots == "strong_lite" else 150
    out = _core.simulate_hands(n, rules=name, bots=bots, seed=11, threads=1, check=True)
    assert out["violations"] == 0, out
    scores = np.asarray(out["scores"]).reshape(n, 4)
    assert (scores.sum(axis=1) == 0).all()
    if bots != "random":
        assert (np.asarray(out["winner"]) >= 0).any(), f"{name}: no hand was won by {bots}"


@pytest.mark.parametrize("name", NAMES)
def test_records_keep_the_rules_and_replay(name: str) -> None:
    bots = [EfficiencyBot(seed=0), ExpertBot(seed=1), RandomBot(seed=2), FirstBot()]
    game = mj.Game(name, bots=bots, seed=3, hands=2)
    record = game.play()
    rules = mj.RuleSet(name)
    assert record.rule_set() == rules
    back = mj.MatchRecord.from_json(record.to_json())
    assert back.rule_set() == rules and back.to_json() == record.to_json()
    mj.replay_record(back)
    assert pickle.loads(pickle.dumps(rules)) == rules
    assert pickle.loads(pickle.dumps(back.rule_set())) == rules
    assert sum(record.final_scores) == 0


@pytest.mark.parametrize("name", NAMES)
def test_every_observation_knows_its_rules(name: str) -> None:
    r = mj.Round(name, seed=5)
    rules = mj.RuleSet(name)
    for seat in range(4):
        obs = r.observation(seat)
        assert obs.rules == rules
        view = obs.ruleset_view
        assert (view is not None and view["kind"] == "bao") == rules.has_wilds
        assert obs.bao == (view["bao"] if view else None)
