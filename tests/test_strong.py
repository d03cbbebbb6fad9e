"""StrongBot: hand-made positions with a clearly right decision, determinism, legal play in
gb and classic, and an arena smoke test."""

import pytest

import majiang as mj
from majiang.bots import StrongBot
from roundkit import A, t
from roundkit import first_claim as claim
from roundkit import first_turn as turn


def play_script(r, steps):
    """Applies `(seat, action)` steps (action None: discard the drawn tile), passing every
    claim the script does not make."""
    for seat, action in steps:
        own_turn = action is None or action.kind == "discard"
        while seat not in r.pending or (own_turn and r.phase != "turn"):
            for s in r.pending:
                r.apply(s, A("pass"))
        r.apply(seat, A("discard", r.drawn) if action is None else action)
    while 0 not in r.pending or r.phase != "turn":
        for s in r.pending:
            r.apply(s, A("pass"))
    return r


def lite():
    return StrongBot(seed=1, rollouts=0)


def test_keeps_the_flush_that_reaches_eight():
    a = lite().act(turn("1235678m99m34p557z"))
    assert a.kind == "discard"
    assert a.tile not in mj.parse_tiles("12356789m"), mj.format_tiles([a.tile])


THREE_PUNGS_HAND = "159m1359s1234z7z5p"


def three_pungs_position():
    """Seat 1 pungs seat 0's 2p, 6p and 9p; then seat 0 draws 8s and holds a lone 5p."""
    hand = THREE_PUNGS_HAND
    hands = [hand + "2p", "22p66p99p2468m246s", "333m777m777s888s6z", "444p888p111p555z6z"]
    draws = ["8m", "8m", "6p", "2s", "2s", "9p", "3s", "4s", "8s"]
    r = mj.Round("gb", seed=0, hands=hands, draws=draws)
    steps = []
    for own, seat1 in (("2p", "2m"), ("6p", "4m"), ("9p", "6m")):
        steps += [(0, None if own != "2p" else A("discard", "2p"))]
        steps += [(1, A("pung", own)), (1, A("discard", seat1)), (2, None), (3, None)]
    return play_script(r, steps).observation(0)


def test_does_not_feed_three_exposed_pungs_of_one_suit():
    hand = THREE_PUNGS_HAND
    obs = three_pungs_position()
    assert [len(m) for m in obs.melds] == [0, 3, 0, 0]
    assert A("discard", "5p") in obs.legal_actions
    assert lite().act(obs) != A("discard", "5p")
    # Without the three pungs on the table the lone dot is a fine discard to make.
    assert lite().act(turn(hand + "8s")).kind == "discard"


def test_takes_the_pung_that_completes_a_needed_fan():
    obs = claim("1245678m99m55z3p7s", "5z")
    assert set(obs.legal_actions) == {A("pung", "5z"), A("pass")}
    assert lite().act(obs) == A("pung", "5z")


def test_passes_the_chow_that_kills_the_only_fan_path():
    # Characters one tile from ready, where the full flush (or a pure straight) is what
    # reaches 8; a bamboo chow leaves no 8-fan hand within two draws.
    obs = claim("11344577999m13s", "2s")
    assert A("chow", "1s") in obs.legal_actions
    assert lite().act(obs) == A("pass")


def test_takes_a_win():
    obs = turn("123m456p789s11122z")
    assert A("win") in obs.legal_actions
    assert lite().act(obs) == A("win")
    obs = claim("123m456p789s1112z", "2z")
    assert A("win") in obs.legal_actions
    assert lite().act(obs) == A("win")


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


def test_danger_reading_sees_the_three_exposed_pungs():
    from majiang import _core

    obs = three_pungs_position()
    ready, deal_in = _core.danger_reading(obs)
    assert len(ready) == 4 and len(deal_in) == 34
    assert ready[0] == 0.0
    # Seat 1, with three exposed dot pungs, is the likeliest to be ready, and a dot is
    # riskier to give it than a character or a bamboo of the same rank.
    assert ready[1] > max(ready[2], ready[3])
    assert deal_in[t("5p")] > max(deal_in[t("5m")], deal_in[t("5s")])
    assert all(0.0 <= p <= 1.0 for p in deal_in)
    # The same table without those pungs reads nobody as likely to be ready.
    calm_ready, _ = _core.danger_reading(turn(THREE_PUNGS_HAND + "8s"))
    assert ready[1] > calm_ready[1]
    with pytest.raises(TypeError, match="Observation"):
        _core.danger_reading(object())
