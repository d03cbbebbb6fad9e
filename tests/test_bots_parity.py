"""The Python bots play exactly as the built-in Rust policies.

``EfficiencyBot`` and ``StrongBot`` hand the round's own observation to the Rust policy.
Here every decision of whole hands in each rule set is compared with the choice of an
independent policy instance reading the live round (the view ``simulate`` plays from),
and a Python-driven huainan match is checked to keep its 宝 and to win as often as
``simulate`` does with the same policy.
"""

from __future__ import annotations

import pytest

import majiang as mj
from majiang import _core
from majiang.bots import EfficiencyBot, StrongBot

RULES = ["gb", "classic", "huainan"]
HANDS = 200


def _pairs(kind: str, rules: str):
    """The Python bot and an independent policy instance with the same settings."""
    if kind == "efficiency":
        return EfficiencyBot(seed=3, rules=rules), _core.Policy("efficiency", rules=rules, seed=3)
    bot = StrongBot(seed=3, rules=rules, time_cap=False)
    return bot, _core.StrongPolicy(rules=rules, seed=3, time_cap=False)


@pytest.mark.parametrize("kind", ["efficiency", "strong"])
@pytest.mark.parametrize("rules", RULES)
def test_python_bot_chooses_what_the_rust_policy_chooses(rules: str, kind: str) -> None:
    bot, live = _pairs(kind, rules)
    decisions = 0
    for k in range(HANDS):
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
    assert decisions > 20 * HANDS


def _bao_discards(n_hands: int) -> tuple[int, int, int]:
    """Huainan hands driven from Python by EfficiencyBots: (wins, discards of the 宝 that
    could have been another discard, discards of any kind)."""
    bot = EfficiencyBot(seed=0, rules="huainan")
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
        bots=[EfficiencyBot(seed=s, rules="huainan") for s in range(4)],
        seed=4,
        hands=n,
    ).play()
    game_rate = sum(bool(h.result["wins"]) for h in record.hands) / n
    sim = mj.simulate(n, rules="huainan", bots="efficiency", seed=4, threads=1)
    sim_rate = float((sim.arrays()["winner"] >= 0).mean())
    assert abs(game_rate - sim_rate) <= 0.04, (game_rate, sim_rate)
