"""The Python match loop: Game, bots, rotation, determinism."""

import pytest

import majiang as mj


def test_gb_match_rotates_dealer_and_winds():
    rec = mj.Game("gb", bots=[mj.bots.RandomBot(seed=i) for i in range(4)], seed=11).play()
    assert len(rec.hands) == 16
    assert [h.dealer for h in rec.hands] == [i % 4 for i in range(16)]
    assert [h.prevalent_wind for h in rec.hands] == [i // 4 for i in range(16)]
    assert sum(rec.final_scores) == 0
    total = [0, 0, 0, 0]
    for h in rec.hands:
        assert h.scores_before == total
        total = [a + b for a, b in zip(total, h.deltas, strict=True)]
        assert h.scores_after == total
    assert rec.final_scores == total


@pytest.mark.parametrize("rules", ["gb", "classic"])
def test_first_legal_action_bot_completes_matches(rules):
    for seed in range(6):
        rec = mj.Game(rules, bots=[mj.bots.FirstBot() for _ in range(4)], seed=seed, hands=8).play()
        assert len(rec.hands) == 8
        assert sum(rec.final_scores) == 0
        for h in rec.hands:
            assert h.result["exhaustive"] or h.winners


def test_classic_dealer_stays_on_a_win_or_draw_otherwise_the_winner_deals():
    seen_change = False
    for seed in range(4):
        rec = mj.Game(
            "classic", bots=[mj.bots.FirstBot() for _ in range(4)], seed=seed, hands=12
        ).play()
        for prev, nxt in zip(rec.hands, rec.hands[1:], strict=False):
            expect = prev.winners[0] if prev.winners else prev.dealer
            assert nxt.dealer == expect
            seen_change |= nxt.dealer != prev.dealer
        assert [h.prevalent_wind for h in rec.hands] == [i // 4 for i in range(12)]
    assert seen_change


def test_same_seed_same_json():
    def play(seed):
        bots = [mj.bots.RandomBot(seed=10 + i) for i in range(4)]
        return mj.Game("gb", bots=bots, seed=seed, hands=4).play().to_json()

    assert play(3) == play(3)
    assert play(3) != play(4)
    rec = mj.Game("classic", seed=5, hands=2).play()
    assert rec.to_json() == mj.Game("classic", seed=5, hands=2).play().to_json()


def test_seed_none_is_recorded():
    rec = mj.Game("gb", bots=[mj.bots.FirstBot()] * 4, hands=1).play()
    assert isinstance(rec.seed, int)
    again = mj.Game("gb", bots=[mj.bots.FirstBot()] * 4, seed=rec.seed, hands=1).play()
    assert again.to_json() == rec.to_json()


class Cheater:
    def act(self, observation):
        return mj.Action("win")


class Wrong:
    def act(self, observation):
        return "discard"


def test_bad_bots_are_refused_clearly():
    with pytest.raises(ValueError, match="four bots"):
        mj.Game("gb", bots=[mj.bots.RandomBot()] * 3)
    with pytest.raises(TypeError, match="act"):
        mj.Game("gb", bots=[object()] * 4)
    with pytest.raises(mj.IllegalActionError, match="win is not legal"):
        mj.Game("gb", bots=[Cheater()] * 4, seed=1, hands=1).play()
    with pytest.raises(TypeError, match="majiang.Action"):
        mj.Game("gb", bots=[Wrong()] * 4, seed=1, hands=1).play()


def test_bot_protocol():
    assert isinstance(mj.bots.RandomBot(), mj.bots.Bot)
    assert isinstance(mj.bots.FirstBot(), mj.bots.Bot)
    import majiang.bots

    assert majiang.bots is mj.bots


def test_rule_set_objects_and_match_length():
    rules = mj.RuleSet("gb", hands_per_match=4)
    rec = mj.Game(rules, bots=[mj.bots.FirstBot()] * 4, seed=2).play()
    assert len(rec.hands) == 4 and rec.options["hands_per_match"] == 4
    rec = mj.Game(rules, bots=[mj.bots.FirstBot()] * 4, seed=2, hands=2).play()
    assert len(rec.hands) == 2
