"""Huainan play: the 宝 in hands, observations and records; a whole match, its record and
its replay in the terminal."""

import json
import subprocess
import sys

import majiang as mj
from majiang.bots import RandomBot


def test_a_hand_shows_the_bao():
    r = mj.Round(mj.RuleSet("huainan"), 3, 0, 0)
    events = [json.loads(e) for e in r.events_json(0)]
    bao = [e for e in events if e["type"] == "bao"]
    assert len(bao) == 1
    assert bao[0]["tile"] == mj.bao_for_indicator(bao[0]["indicator"])
    assert 2 <= bao[0]["throw"] <= 12
    obs = r.observation(0)
    assert obs.bao == bao[0]["tile"] and obs.bao_indicator == bao[0]["indicator"]
    assert obs.bao_drawn == obs.hand.count(obs.bao)
    # The indicator lies in the wall at W[136 - 2*throw] (D-5).
    assert r.wall[136 - 2 * bao[0]["throw"]] == bao[0]["indicator"]
    # gb hands have no 宝.
    assert mj.Round(mj.RuleSet("gb"), 3, 0, 0).observation(0).bao is None


def test_a_huainan_match_record_and_replay(tmp_path):
    game = mj.Game(rules="huainan", bots=[RandomBot(seed=i) for i in range(4)], seed=2026, hands=8)
    rec = game.play()
    assert sum(rec.final_scores) == 0 and len(rec.hands) == 8
    text = rec.to_json()
    again = mj.Game(rules="huainan", bots=[RandomBot(seed=i) for i in range(4)], seed=2026, hands=8)
    assert again.play().to_json() == text
    loaded = mj.MatchRecord.from_json(text)
    loaded.replay()
    for h in loaded.hands:
        assert any(e["type"] == "bao" for e in h.events)
        for w in h.result["wins"]:
            assert w["form"] and w["value"] == w["fan_total"]
    path = tmp_path / "huainan.jsonl"
    path.write_text(text, encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-m", "majiang", "replay", str(path), "--all", "--verify"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    assert "宝" in out


class WildBot:
    """Wins when it can; otherwise discards the tile that leaves the lowest wild-aware
    shanten, never a 宝 while another tile can go; passes on claims."""

    def act(self, obs):
        legal = obs.legal_actions
        for a in legal:
            if a.kind == "win":
                return a
        discards = [a for a in legal if a.kind == "discard"]
        if not discards:
            return next(a for a in legal if a.kind == "pass")
        hand, bao = obs.hand, obs.bao

        def cost(a):
            rest = list(hand)
            rest.remove(a.tile)
            return (a.tile == bao, mj.shanten(rest, obs.melds[obs.seat], rules="huainan", wild=bao))

        return min(discards, key=cost)


def test_wild_aware_bots_win_and_wins_are_scored():
    rec = mj.Game(rules="huainan", bots=[WildBot() for _ in range(4)], seed=5, hands=6).play()
    assert sum(rec.final_scores) == 0
    wins = [w for h in rec.hands for w in h.result["wins"]]
    assert len(wins) >= 3
    for w in wins:
        assert w["value"] >= 1 and w["form"]
        assert sum(w["deltas"]) == 0
    rec_again = mj.Game(rules="huainan", bots=[WildBot() for _ in range(4)], seed=5, hands=6).play()
    assert rec_again.to_json() == rec.to_json()
    mj.MatchRecord.from_json(rec.to_json()).replay()


def test_a_match_under_alternative_wall_rules_records_and_replays():
    rules = mj.RuleSet(
        "huainan",
        reserved_tiles=14,
        bao_indicator_count_from="head",
        bao_indicator_stays_in_wall=False,
        added_kong_tile="just_drawn",
        kong_on_empty_wall=True,
    )
    rec = mj.Game(rules=rules, bots=[RandomBot(seed=i) for i in range(4)], seed=9, hands=4).play()
    loaded = mj.MatchRecord.from_json(rec.to_json())
    assert loaded.rule_set().options()["reserved_tiles"] == 14
    loaded.replay()
    assert len(loaded.hands) == 4 and sum(loaded.final_scores) == 0
