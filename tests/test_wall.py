"""The seeded wall: portable shuffle, dice, the deal, the two ends, exhaustive draw."""

from collections import Counter

import pytest

import majiang as mj


def test_same_seed_same_wall_on_every_machine():
    # Golden values: the generator (xoshiro256** seeded by SplitMix64) and the
    # Fisher-Yates shuffle are written out in the crate, so these never change.
    assert mj.Round("gb", seed=0).wall[:16] == [
        7,
        32,
        1,
        31,
        13,
        21,
        11,
        8,
        39,
        9,
        7,
        7,
        1,
        19,
        11,
        19,
    ]
    assert mj.Round("gb", seed=0).dice == [1, 1]
    r = mj.Round("classic", seed=123456789)
    assert r.wall[:16] == [31, 20, 31, 11, 22, 6, 5, 13, 1, 19, 4, 3, 24, 17, 33, 2]
    assert r.dice == [4, 6, 1, 5]


@pytest.mark.parametrize("rules, n, flowers", [("gb", 144, True), ("classic", 136, False)])
def test_wall_is_a_full_set(rules, n, flowers):
    for seed in range(20):
        w = mj.Round(rules, seed=seed).wall
        assert len(w) == n
        c = Counter(w)
        assert all(c[t] == 4 for t in range(34))
        assert all(c[t] == (1 if flowers else 0) for t in range(34, 42))
    assert mj.Round(rules, seed=1).wall != mj.Round(rules, seed=2).wall


def test_dice_single_throw_in_gb_and_two_throws_in_classic():
    for seed in range(30):
        gb = mj.Round("gb", seed=seed)
        (dice,) = [e for e in gb.events() if e["type"] == "dice"]
        assert len(dice["dice"]) == 2 and all(1 <= d <= 6 for d in dice["dice"])
        assert dice["break_stack"] == sum(dice["dice"])
        assert dice["break_seat"] == (sum(dice["dice"]) - 1) % 4
        cl = mj.Round("classic", seed=seed)
        (dice,) = [e for e in cl.events() if e["type"] == "dice"]
        assert len(dice["dice"]) == 4
        assert dice["break_seat"] == (dice["dice"][0] + dice["dice"][1] - 1) % 4
        assert dice["break_stack"] == sum(dice["dice"])
    single = mj.RuleSet("classic", break_throw="single")
    assert len(mj.Round(single, seed=3).dice) == 2


def test_deal_is_4_4_4_and_the_jump():
    r = mj.Round("classic", seed=11, dealer=2)
    w = r.wall
    deals = {e["seat"]: e["tiles"] for e in r.events() if e["type"] == "deal"}
    # Seat order from the dealer: 2, 3, 0, 1; each takes two stacks (4 tiles) three times.
    for k, seat in enumerate([2, 3, 0, 1]):
        expect = [w[r16 * 16 + k * 4 + i] for r16 in range(3) for i in range(4)] + [w[48 + k]]
        if k == 0:
            expect.append(w[52])
        assert deals[seat] == expect
    assert len(deals[2]) == 14 and all(len(deals[s]) == 13 for s in (0, 1, 3))
    # The dealer discards; the next seat draws W[53] from the head.
    r.apply(2, mj.Action("discard", r.hand(2)[0]))
    if r.phase == "claim":
        for s in r.pending:
            r.apply(s, mj.Action("pass"))
    draws = [e for e in r.events() if e["type"] == "draw"]
    if r.phase == "turn" and r.turn == 3:
        assert draws[0] == {"type": "draw", "seat": 3, "tile": w[53], "tail": False}


def test_replacements_come_from_the_tail_upper_tile_first():
    hands = ["1f2f147m258s123456z", "258m369s1234z6z7z1m", "369m147s67z28s1m3m6s", "1112344678999p"]
    r = mj.Round("gb", hands=hands, replacements="5m6m")
    w = r.wall
    assert (w[142], w[143]) == tuple(mj.parse_tiles("5m6m"))
    draws = [e for e in r.events() if e["type"] == "draw"]
    assert [(d["tile"], d["tail"]) for d in draws] == [(w[142], True), (w[143], True)]
    assert r.wall_remaining == 144 - 53 - 2


def test_exhaustive_draw_when_the_wall_runs_out():
    bot = mj.bots.FirstBot()
    for seed in range(40):
        r = mj.Round("gb", seed=seed)
        while not r.is_over:
            for s in r.pending:
                acts = r.legal_actions(s)
                # Never win: play the hand to the end of the wall.
                choice = next((a for a in acts if a.kind in ("discard", "pass")), None)
                r.apply(s, choice or bot.act(r.observation(s)))
        assert r.result["exhaustive"] == (r.result["wins"] == [])
        if r.result["exhaustive"]:
            assert r.wall_remaining == 0
            assert r.events()[-1] == {"type": "exhaustive_draw"}
            assert r.result["deltas"] == [0, 0, 0, 0]
