"""The Python bots play exactly as the built-in Rust policies, by the rules of the table.

``EfficiencyBot``, ``StrongBot`` and ``ExpertBot`` hand the round's own observation to the
Rust policy, and the observation carries the rules it was dealt under. Here the bots are
built *without* ``rules=`` (as a user writes ``Game("huainan", bots=[ExpertBot(seed=i)
...])``), and every decision of whole hands in every registered rule set and preset is
compared with the choice of an independent policy instance built for that table's rules
and reading the live round (the view ``simulate`` plays from). A Python-driven huainan
match is checked to keep its 宝 and to win as often as ``simulate`` does with the same
policy, and a bot restricted to other rules refuses the table with ``RuleError``.
"""

from __future__ import annotations

import pytest

import majiang as mj
from majiang import _core
from majiang.bots import EfficiencyBot, ExpertBot, StrongBot

RULES = list(mj.rules.NAMES)
HANDS = {"efficiency": 200, "strong": 200, "expert": 12}


def _pairs(kind: str, rules: str):
    """The Python bot (no ``rules=``: it plays the observation's) and an independent
    policy instance built for ``rules``."""
    if kind == "efficiency":
        return EfficiencyBot(seed=3), _core.Policy("efficiency", rules=rules, seed=3)
    if kind == "expert":
        return ExpertBot(seed=3), _core.Policy("expert", rules=rules, seed=3)
    bot = StrongBot(seed=3, time_cap=False)
    return bot, _core.StrongPolicy(rules=rules, seed=3, time_cap=False)


@pytest.mark.parametrize("kind", ["efficiency", "strong", "expert"])
@pytest.mark.parametrize("rules", RULES)
def test_python_bot_chooses_what_the_rust_policy_chooses(rules: str, kind: str) -> None:
    bot, live = _pairs(kind, rules)
    decisions = 0
    hands = HANDS[kind]
    for k in range(hands):
        r = mj.Round(rules, seed=1000 + k, dealer=k % 4, prevalent_wind=k // 4 % 4)
        while r.pending:
            for s in r.pending:
                obs = r.observation(s)
                a = bot.act(obs)
                want = live._choose_live(r, s)
                assert a == want, f"hand {k}, seat {s}: bot {a}, policy {want}; {obs}"
                r.apply(s, a)
                decisions += 1
        assert r.result is not None
    assert decisions > 20 * hands


def _bao_discards(n_hands: int) -> tuple[int, int, int]:
    """Huainan hands driven from Python by EfficiencyBots: (wins, discards of the 宝 that
    could have been another discard, discards of any kind)."""
    bot = EfficiencyBot(seed=0)
    wins = thrown = discards = 0
    for k in range(n_hands):
        r = mj.Round("huainan", seed=k, dealer=k % 4)
        while r.pending:
            for s in r.pending:
                obs = r.observation(s)
                a = bot.act(obs)
                if a.kind == "discard":
                    discards += 1
                    legal = obs.legal_actions
                    others = [x for x in legal if x.kind == "discard" and x.tile != obs.bao]
                    if a.tile == obs.bao and others:
                        thrown += 1
                r.apply(s, a)
        wins += bool(r.result["wins"])
    return wins, thrown, discards


def test_python_efficiency_bot_keeps_its_bao_in_huainan() -> None:
    wins, thrown, discards = _bao_discards(60)
    assert discards > 1000
    assert thrown == 0
    assert wins > 40


def test_python_huainan_game_wins_as_often_as_simulate() -> None:
    n = 200
    record = mj.Game(
        rules="huainan",
        bots=[EfficiencyBot(seed=s) for s in range(4)],
        seed=4,
        hands=n,
    ).play()
    game_rate = sum(bool(h.result["wins"]) for h in record.hands) / n
    sim = mj.simulate(n, rules="huainan", bots="efficiency", seed=4, threads=1)
    sim_rate = float((sim.arrays()["winner"] >= 0).mean())
    assert abs(game_rate - sim_rate) <= 0.04, (game_rate, sim_rate)


@pytest.mark.parametrize("make", [EfficiencyBot, ExpertBot, StrongBot])
def test_a_bot_restricted_to_other_rules_refuses_the_table(make) -> None:
    bots = [make(seed=i) for i in range(3)] + [make(seed=3, rules="gb")]
    with pytest.raises(mj.BotError, match="dealt under huainan") as info:
        mj.Game("huainan", bots=bots, seed=1, hands=1).play()
    assert isinstance(info.value.__cause__, mj.RuleError)
    assert info.value.seat == 3
    # The same bots restricted to the table's own rules play it, as the unrestricted do.
    same = [make(seed=i, rules="huainan") for i in range(4)]
    free = [make(seed=i) for i in range(4)]
    a = mj.Game("huainan", bots=same, seed=1, hands=1).play()
    b = mj.Game("huainan", bots=free, seed=1, hands=1).play()
    assert a.to_json() == b.to_json()


def test_one_bot_follows_the_rules_of_each_observation() -> None:
    """A bot kept across tables of different rules plays each table's rules."""
    bot = EfficiencyBot(seed=5)
    for rules in RULES:
        fresh = _core.Policy("efficiency", rules=rules, seed=5)
        r = mj.Round(rules, seed=11)
        for _ in range(30):
            if not r.pending:
                break
            s = r.pending[0]
            obs = r.observation(s)
            assert obs.rules == mj.RuleSet(rules)
            a = bot.act(obs)
            assert a == fresh.choose(obs)
            r.apply(s, a)
