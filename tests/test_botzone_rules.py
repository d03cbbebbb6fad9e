"""Private walls (B-1): each seat is dealt from and draws only from its own quarter of the
wall; the hand ends when the seat about to draw has none left; the last tile, the last
discard and kongs read the next seat's wall."""

import pytest

import majiang as mj
from majiang.bots import RandomBot

BOTZONE = mj.RuleSet("gb", private_walls=True, flowers=False)
Q = 34


def own_draws(r):
    """Each seat's tiles in the order it took them from the wall (deal, then draws)."""
    got = {s: [] for s in range(4)}
    for e in r.events():
        if e["type"] == "deal":
            got[e["seat"]] += list(e["tiles"])[: 14 if e["seat"] == r.dealer else 13]
        elif e["type"] == "draw":
            got[e["seat"]].append(e["tile"])
    return got


def left(r, seat):
    """Tiles left in ``seat``'s own wall now."""
    return Q - len(own_draws(r)[seat])


def play_checked(seed):
    r = mj.Round(BOTZONE, seed=seed, dealer=seed % 4)
    bots = [RandomBot(seed * 4 + s) for s in range(4)]
    checked = 0
    while not r.is_over:
        s = r.pending[0]
        nxt = (r.turn + 1) % 4
        spent = left(r, nxt) == 0
        kinds = {a.kind for a in r.legal_actions(s)}
        if spent:
            checked += 1
            # Nothing but a win (or a discard) once the next seat's wall is empty.
            assert not kinds & {"chow", "pung", "kong", "concealed_kong", "added_kong"}
        r.apply(s, bots[s].act(r.observation(s)))
    return r, checked


@pytest.mark.parametrize("seed", range(6))
def test_each_seat_deals_and_draws_from_its_own_wall(seed):
    r, _ = play_checked(seed)
    wall = r.wall
    for s, tiles in own_draws(r).items():
        i = (s - r.dealer) % 4
        assert tiles == wall[i * Q : i * Q + len(tiles)]


def test_the_hand_ends_when_the_seat_to_draw_has_no_wall_left():
    drawn = 0
    for seed in range(12):
        r, checked = play_checked(seed)
        if r.result["wins"]:
            continue
        drawn += 1
        taken = own_draws(r)
        # Somebody's wall ran out; the others may still hold tiles.
        assert min(Q - len(t) for t in taken.values()) == 0
        assert checked > 0
    assert drawn > 0


def test_last_tile_fans_read_the_next_seats_wall():
    rules = mj.RuleSet("gb", private_walls=True, flowers=False, min_fan=1)
    seen = 0
    for seed in range(100):
        r = mj.Round(rules, seed=seed)
        bot = mj.bots.FirstBot()  # wins whenever it can
        while not r.is_over:
            s = r.pending[0]
            a = bot.act(r.observation(s))
            spent = left(r, (r.turn + 1) % 4) == 0
            r.apply(s, a)
            if r.is_over and r.result["wins"]:
                names = {f["name_zh"] for w in r.result["wins"] for f in w["fans"]}
                last = bool({"妙手回春", "海底捞月"} & names)
                assert last == spent, (seed, names)
                seen += last
    assert seen >= 2


def test_a_private_wall_hand_is_not_rebuilt_from_a_view():
    from majiang.botzone import Table, parse_request

    t = Table()
    for line in ("0 1 0", "1 0 0 0 0 W1 W1 W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F1", "3 0 DRAW"):
        t.update(parse_request(line))
    t.update(parse_request("3 0 PLAY W4"))
    view = t.view("claim", 0, 3)
    assert mj.Round.from_view(mj.RuleSet("gb", flowers=False), view).phase == "claim"
    with pytest.raises(mj.RuleError, match="private walls"):
        mj.Round.from_view(BOTZONE, view)


def test_private_walls_run_in_simulate_arena_and_game():
    shared = mj.RuleSet("gb", flowers=False)
    a = mj.simulate(200, seed=1, rules=BOTZONE, bots="efficiency")
    b = mj.simulate(200, seed=1, rules=shared, bots="efficiency")
    assert len(a.turns) == len(b.turns) == 200
    assert (a.turns != b.turns).any()
    result = mj.arena("efficiency,random,efficiency,random", hands=8, seed=1, rules=BOTZONE)
    assert result.scores.shape[0] > 0
    record = mj.Game(BOTZONE, [mj.bots.FirstBot()] * 4, seed=3, hands=2).play()
    assert len(record.hands) == 2


def test_the_2020_calculator_drops_wait_fans_on_a_knitted_straight_tile():
    hand, win = "369m12358p13347s", "2p"
    ours = mj.evaluate_fan(hand, win, seat_wind=2, prevalent_wind=1)
    botzone = mj.evaluate_fan(
        hand,
        win,
        seat_wind=2,
        prevalent_wind=1,
        rules=mj.RuleSet("gb", wait_fans_on_knitted_tile=False),
    )
    assert (ours.total, botzone.total) == (17, 16)
    assert {f.name_zh for f in ours.fans} - {f.name_zh for f in botzone.fans} == {"独听・嵌张"}
    # A winning tile outside the knitted straight keeps its wait fan either way.
    rules = mj.RuleSet("gb", wait_fans_on_knitted_tile=False)
    a = mj.evaluate_fan("147m258p369s12m77z", "3m", rules=rules)
    b = mj.evaluate_fan("147m258p369s12m77z", "3m")
    assert a.total == b.total and "独听・边张" in {f.name_zh for f in a.fans}


def test_the_botzone_preset():
    rules = mj.botzone.rules()
    r = mj.Round(rules, seed=3)
    assert len(r.wall) == 136 and r.wall_remaining == 136 - 53
    assert sorted(r.hand(0)) == sorted(r.wall[:14])
    hand, win = "369m12358p13347s", "2p"
    assert mj.evaluate_fan(hand, win, seat_wind=2, prevalent_wind=1, rules=rules).total == 16
    with_flowers = mj.botzone.rules(flowers=True, exact_scores=False)
    assert len(mj.Round(with_flowers, seed=3).wall) == 144
    assert mj.evaluate_fan(hand, win, seat_wind=2, prevalent_wind=1, rules=with_flowers).total == 17


def test_a_false_win_ends_the_hand_with_botzones_penalty():
    rules = mj.RuleSet("gb", penalty_mode="botzone", flowers=False)
    r = mj.Round(rules, seed=4)
    assert mj.Action("win") not in r.legal_actions(r.turn)
    r.apply(r.turn, mj.Action("win"))
    assert r.is_over and r.result["wins"] == [] and not r.result["exhaustive"]
    assert r.result["deltas"] == [-30, 10, 10, 10]
    assert r.events()[-1] == {"type": "penalty", "seat": 0, "each": 10}
    # On another seat's discard too, while a true win is still a win.
    hands = ["5p147m258s1234567z", "46p258m369s12345z", "55p369m147s67z28s1m", "1112345678999p"]
    r = mj.Round(rules, hands=hands)
    r.apply(0, mj.Action("discard", "5p"))
    r.apply(1, mj.Action("win"))
    assert r.is_over and r.result["deltas"] == [10, -30, 10, 10]
    r = mj.Round(rules, hands=hands)
    r.apply(0, mj.Action("discard", "5p"))
    r.apply(3, mj.Action("win"))
    while not r.is_over:
        r.apply(r.pending[0], mj.Action("pass"))
    assert [w["seat"] for w in r.result["wins"]] == [3]


def test_a_true_win_before_a_false_one_in_claim_order_stands():
    # D5: on seat 0's 5p, seat 1 (first in claim order) holds the nine gates and wins;
    # seats 2 and 3 declare false wins, before or after it: the judge reads seat 1 first.
    rules = mj.RuleSet("gb", penalty_mode="botzone", flowers=False)
    hands = ["5p147m258s1234567z", "1112345678999p", "55p369m147s67z28s1m", "46p258m369s12345z"]
    for liars in ([2], [3], [2, 3]):
        for first in (True, False):
            r = mj.Round(rules, hands=hands)
            r.apply(0, mj.Action("discard", "5p"))
            if first:
                r.apply(1, mj.Action("win"))
            for s in liars:
                if not r.is_over:  # a false win after the hand's end is refused
                    r.apply(s, mj.Action("win"))
            if not first:
                assert not r.is_over  # the false wins wait for seat 1
                r.apply(1, mj.Action("win"))
            while not r.is_over:
                r.apply(r.pending[0], mj.Action("pass"))
            assert [w["seat"] for w in r.result["wins"]] == [1]
            assert all(e["type"] != "penalty" for e in r.events())
    # Seat 1 passing instead, the first false win in claim order is the penalty.
    r = mj.Round(rules, hands=hands)
    r.apply(0, mj.Action("discard", "5p"))
    r.apply(3, mj.Action("win"))
    r.apply(2, mj.Action("win"))
    r.apply(1, mj.Action("pass"))
    assert r.is_over and r.result["deltas"] == [10, 10, -30, 10]
