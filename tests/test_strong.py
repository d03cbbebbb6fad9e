"""StrongBot: hand-made positions with a clearly right decision, determinism, legal play in
gb and classic, and an arena smoke test."""

from types import SimpleNamespace

import pytest

import majiang as mj
from majiang.bots import StrongBot

A = mj.Action


def t(s):
    (x,) = mj.parse_tiles(s)
    return x


def counts(s):
    c = [0] * 34
    for x in mj.parse_tiles(s):
        c[x] += 1
    return c


def position(hand, legal, *, claim=None, melds=None, discards=(), wall_remaining=80):
    """A seat-0 observation built from its public attributes (what the bots read)."""
    visible = [0] * 34
    melds = melds or [[], [], [], []]
    for ms in melds:
        for m in ms:
            for x in m.tiles:
                visible[x] += 1
    log = []
    for seat, tile in discards:
        log.append((seat, t(tile), False, False))
        visible[t(tile)] += 1
    if claim is not None:
        visible[claim[1]] += 1
        log.append((claim[0], claim[1], False, False))
    return SimpleNamespace(
        seat=0,
        dealer=0,
        prevalent_wind=0,
        phase="claim" if claim else "turn",
        turn=claim[0] if claim else 0,
        counts=counts(hand),
        drawn=None,
        melds=melds,
        hidden_kongs=[0, 0, 0, 0],
        flowers=[[], [], [], []],
        ready=[False] * 4,
        discard_log=log,
        visible=visible,
        wall_remaining=wall_remaining,
        claim=claim,
        legal_actions=legal,
    )


def discards_of(hand):
    return [A("discard", x) for x in sorted(set(mj.parse_tiles(hand)))]


def lite():
    return StrongBot(seed=1, rollouts=0)


def test_keeps_the_flush_that_reaches_eight():
    hand = "1235678m99m34p557z"
    a = lite().act(position(hand, discards_of(hand)))
    assert a.kind == "discard"
    assert a.tile not in mj.parse_tiles("12356789m"), mj.format_tiles([a.tile])


def test_does_not_feed_three_exposed_pungs_of_one_suit():
    hand = "159m1359s1234z7z5p"
    pungs = [mj.Meld("pung", x) for x in ("222p", "666p", "999p")]
    melds = [[], pungs, [], []]
    rows = ["2m", "3m", "4m", "6m", "7m", "8m", "2s", "4s", "6s", "7s", "8s", "5z"]
    discards = [(s, x) for s in (1, 2, 3) for x in rows]
    obs = position(hand, discards_of(hand), melds=melds, discards=discards, wall_remaining=30)
    a = lite().act(obs)
    assert a != A("discard", "5p")
    # Without the three pungs on the table the lone dot is a fine discard to make.
    plain = position(hand, discards_of(hand), discards=discards, wall_remaining=30)
    assert lite().act(plain).kind == "discard"


def test_takes_the_pung_that_completes_a_needed_fan():
    hand = "1245678m99m55z3p7s"
    obs = position(hand, [A("pung", "5z"), A("pass")], claim=(3, t("5z")))
    assert lite().act(obs) == A("pung", "5z")


def test_passes_the_chow_that_kills_the_only_fan_path():
    # Characters one tile from ready, where the full flush (or a pure straight) is what
    # reaches 8; a bamboo chow leaves no 8-fan hand within two draws.
    hand = "11344577999m13s"
    obs = position(hand, [A("chow", "1s"), A("pass")], claim=(3, t("2s")))
    assert lite().act(obs) == A("pass")


def test_takes_a_win_and_a_single_action_at_once():
    hand = "123m456p789s11122z"
    obs = position(hand, [A("win"), A("discard", "1z")])
    assert lite().act(obs) == A("win")
    obs = position("123m456p789s1112z", [A("pass")], claim=(3, t("9m")))
    assert lite().act(obs) == A("pass")


def test_arguments_are_checked():
    with pytest.raises(ValueError, match="budget_ms"):
        StrongBot(budget_ms=-1)
    with pytest.raises(ValueError, match="seed"):
        StrongBot(seed=-3)
    with pytest.raises(ValueError, match="rollouts"):
        StrongBot(rollouts=-1)
    assert StrongBot(budget_ms=20).rollouts == 0
    assert StrongBot(budget_ms=20, rollouts=30).rollouts == 30


@pytest.mark.parametrize("rules", ["gb", "classic"])
def test_games_are_legal_and_seeded(rules):
    def play():
        bots = [StrongBot(seed=3, rollouts=6, time_cap=False, rules=rules)] + [
            StrongBot(seed=s, rollouts=0, rules=rules) for s in (4, 5, 6)
        ]
        return mj.Game(rules=rules, bots=bots, seed=11, hands=2).play()

    a, b = play(), play()
    assert sum(a.final_scores) == 0
    assert a.to_json() == b.to_json()


def test_arena_smoke():
    bots = ["strong", "efficiency", "efficiency", "efficiency"]
    r = mj.arena(bots, hands=4, seed=3, threads=1)
    s = r.summary()
    assert [x["bot"] for x in s] == ["strong", "efficiency", "efficiency", "efficiency"]
    assert all(x["games"] == 4 for x in s)
    again = mj.arena(bots, hands=4, seed=3, threads=2)
    assert again.summary() == s
    lite_run = mj.simulate(8, bots="strong_lite", seed=1)
    assert len(lite_run) == 8
