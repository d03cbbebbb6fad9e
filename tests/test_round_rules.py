"""Rule scenarios on arranged walls: claims and their priority, kongs and robbing,
flowers, the last tile, the minimum, declared ready, penalties."""

import pytest

import majiang as mj
from roundkit import A, T, discard_drawn, pass_all, t


def legal(r, seat):
    return r.legal_actions(seat)


# Seat 0 (dealer) discards 5p; seat 1 can chow it, seat 2 pung it, seat 3 win on it
# (九莲宝灯 waiting on every 筒 tile).
PRIORITY = [
    "5p147m258s1234567z",
    "46p258m369s12345z",
    "55p369m147s67z28s1m",
    "1112345678999p",
]


def test_win_beats_pung_beats_chow():
    r = mj.Round("gb", hands=PRIORITY)
    r.apply(0, A("discard", "5p"))
    assert r.phase == "claim" and r.pending == (1, 2, 3)
    assert A("chow", "4p") in legal(r, 1)
    assert A("pung", "5p") in legal(r, 2)
    assert A("win") in legal(r, 3)
    r.apply(1, A("chow", "4p"))
    r.apply(2, A("pung", "5p"))
    r.apply(3, A("win"))
    assert r.is_over
    res = r.result
    (win,) = res["wins"]
    assert (win["seat"], win["from"], win["how"]) == (3, 0, "discard")
    assert sum(res["deltas"]) == 0
    assert res["deltas"][0] < res["deltas"][1] == res["deltas"][2] < 0


def test_pung_beats_chow_whatever_the_answer_order():
    r = mj.Round("gb", hands=PRIORITY)
    r.apply(0, A("discard", "5p"))
    r.apply(3, A("pass"))
    r.apply(2, A("pung", "5p"))
    assert r.phase == "claim", "seat 1 has not answered yet"
    r.apply(1, A("chow", "4p"))
    assert r.phase == "turn" and r.turn == 2
    assert [m.kind for m in r.melds(2)] == ["pung"]
    assert r.melds(1) == []
    # A turn that began with a claim has no self-drawn win and no draw.
    assert r.drawn is None
    assert A("win") not in legal(r, 2)


def test_chow_when_nobody_else_claims():
    r = mj.Round("gb", hands=PRIORITY)
    r.apply(0, A("discard", "5p"))
    r.apply(1, A("chow", "4p"))
    r.apply(2, A("pass"))
    r.apply(3, A("pass"))
    assert r.turn == 1 and r.melds(1) == [mj.Meld("chow", "456p")]
    ev = r.events()[-1]
    assert ev == {"type": "chow", "seat": 1, "from": 0, "tile": t("5p"), "low": t("4p")}


def test_chow_only_from_the_left():
    # Seat 2 discards a tile seat 0 could use in a chow: seat 0 sits right of seat 2,
    # so it is not offered; seat 3 (the discarder's right, 下家) is.
    hands = [
        "12p147m258s123456z",
        "9p258m369s1234z6z7z",
        "3p369m147s67z28s1m5z",
        "12p258m369s123z6z7z",
    ]
    r = mj.Round("gb", hands=hands, draws="8m8m")
    r.apply(0, A("discard", "1m"))
    pass_all(r)
    discard_drawn(r)  # seat 1 draws 8m and discards it
    assert r.turn == 2
    r.apply(2, A("discard", "3p"))
    assert 0 not in r.pending
    assert A("chow", "1p") in legal(r, 3)
    assert all(a.kind != "chow" for s in r.pending for a in legal(r, s) if s != 3)


def test_head_bump_first_counter_clockwise_from_the_discarder_wins():
    hands = [
        "5p147m258s1234567z",
        "369m147s1234z6z7z2m",
        "2233446677885p",
        "1112345678999p",
    ]
    r = mj.Round("gb", hands=hands)
    r.apply(0, A("discard", "5p"))
    assert A("win") in legal(r, 2) and A("win") in legal(r, 3)
    r.apply(3, A("win"))
    r.apply(2, A("win"))
    assert [w["seat"] for w in r.result["wins"]] == [2]
    assert [e["seat"] for e in r.events() if e["type"] == "win"] == [2]
    # Without the head bump the option lets both win.
    both = mj.RuleSet("gb", single_winner_headbump=False)
    r = mj.Round(both, hands=hands)
    r.apply(0, A("discard", "5p"))
    r.apply(2, A("win"))
    r.apply(3, A("win"))
    assert [w["seat"] for w in r.result["wins"]] == [2, 3]
    assert sum(r.result["deltas"]) == 0


def test_a_seat_may_pass_a_win_and_win_later():
    r = mj.Round("gb", hands=PRIORITY)
    r.apply(0, A("discard", "5p"))
    for s in (1, 2, 3):
        r.apply(s, A("pass"))
    assert r.phase == "turn" and r.turn == 1
    assert not r.is_over


# Robbing: seat 3 waits on 5p (清一色, 111 234 789 99 + 46). Seat 1 holds a pair of 5p.
ROB = [
    "5p147m258s1234567z",
    "55p258m369s1234z1s",
    "369m147s67z28s1m3m6s",
    "1112344678999p",
]


def _pung_then_draw_fourth(rules="gb"):
    # Dealer discards 5p; seat 3 passes its win, seat 1 pungs; then junk draws until
    # seat 1 draws the fourth 5p.
    r = mj.Round(rules, hands=ROB, draws="1z2z3z5p")
    r.apply(0, A("discard", "5p"))
    assert A("win") in legal(r, 3)
    r.apply(3, A("pass"))
    r.apply(1, A("pung", "5p"))
    assert all(a.kind != "added_kong" for a in legal(r, 1))
    r.apply(1, A("discard", "1s"))
    pass_all(r)
    for _ in range(3):
        discard_drawn(r)
    assert r.turn == 1 and r.drawn == t("5p")
    return r


def test_robbing_an_added_kong():
    r = _pung_then_draw_fourth()
    assert A("added_kong", "5p") in legal(r, 1)
    r.apply(1, A("added_kong", "5p"))
    assert r.phase == "rob_kong" and r.pending == (3,)
    assert legal(r, 3) == [A("win"), A("pass")]
    r.apply(3, A("win"))
    (win,) = r.result["wins"]
    assert (win["seat"], win["from"], win["how"]) == (3, 1, "robbed_kong")
    assert "抢杠和" in [f["name_zh"] for f in win["fans"]]
    # The kong is void: seat 1 keeps a pung.
    assert [m.kind for m in r.melds(1)] == ["pung"]
    assert r.result["deltas"][1] < r.result["deltas"][0] < 0


def test_an_unrobbed_added_kong_stands_and_draws_from_the_tail():
    r = _pung_then_draw_fourth()
    remaining = r.wall_remaining
    r.apply(1, A("added_kong", "5p"))
    r.apply(3, A("pass"))
    assert [m.kind for m in r.melds(1)] == ["kong"]
    draw = r.events()[-1]
    assert draw["type"] == "draw" and draw["tail"] and draw["seat"] == 1
    assert r.wall_remaining == remaining - 1
    assert r.phase == "turn" and r.turn == 1


def test_concealed_and_claimed_kongs_cannot_be_robbed():
    hands = list(ROB)
    hands[1] = "555p258m369s1234z"
    # Concealed kong: seat 1 draws the fourth 5p itself.
    r = mj.Round("gb", hands=["1s147m258s1234567z", *hands[1:]], draws="5p")
    r.apply(0, A("discard", "1s"))
    pass_all(r)
    assert A("concealed_kong", "5p") in legal(r, 1)
    r.apply(1, A("concealed_kong", "5p"))
    assert r.phase == "turn" and r.turn == 1 and r.pending == (1,)
    assert r.events()[-1]["tail"] is True
    # Others do not see the concealed kong's tile.
    assert r.events(seat=3)[-2] == {"type": "concealed_kong", "seat": 1, "tile": None}
    obs = r.observation(3)
    assert obs.melds[1] == [] and obs.hidden_kongs == [0, 1, 0, 0]
    # Claimed kong: seat 3 could win on the discard itself instead.
    r = mj.Round("gb", hands=hands)
    r.apply(0, A("discard", "5p"))
    assert A("kong", "5p") in legal(r, 1) and A("win") in legal(r, 3)
    r.apply(3, A("pass"))
    r.apply(1, A("kong", "5p"))
    assert r.phase == "turn" and r.turn == 1
    assert [m.kind for m in r.melds(1)] == ["kong"]


def test_no_kong_on_a_turn_that_began_with_a_claim():
    hands = [
        "9m19p19s1234567z11p",
        "99m5555p19s12345z",
        "28m28p28s2345z67z9p",
        "37m37p37s1234567z",
    ]
    r = mj.Round("gb", hands=hands)
    r.apply(0, A("discard", "9m"))
    r.apply(1, A("pung", "9m"))
    pass_all(r)
    assert r.turn == 1
    assert all(a.kind != "concealed_kong" for a in legal(r, 1))
    free = mj.RuleSet("gb", kong_lock_after_claim="none")
    r = mj.Round(free, hands=hands)
    r.apply(0, A("discard", "9m"))
    r.apply(1, A("pung", "9m"))
    pass_all(r)
    assert A("concealed_kong", "5p") in legal(r, 1)


def test_flower_replacement_passes_and_each_completes():
    hands = [
        "1f147m258s1234567z",
        "2f258m369s12345z6z",
        "369m147s67z28s1m3m6s",
        "1112344678999p",
    ]
    tail = "3f" + "7m" + "9m"
    passes = mj.Round("gb", hands=hands, replacements=tail)
    ev = [
        (e["type"], e["seat"], e.get("tile"))
        for e in passes.events()
        if e["type"] in ("flower", "draw")
    ]
    assert ev == [
        ("flower", 0, t("1f")),
        ("draw", 0, t("3f")),
        ("flower", 1, t("2f")),
        ("draw", 1, t("7m")),
        ("flower", 0, t("3f")),
        ("draw", 0, t("9m")),
    ]
    assert passes.flowers(0) == T("13f") and passes.flowers(1) == T("2f")
    each = mj.Round(
        mj.RuleSet("gb", initial_flower_mode="each_completes"), hands=hands, replacements=tail
    )
    ev = [
        (e["type"], e["seat"], e.get("tile"))
        for e in each.events()
        if e["type"] in ("flower", "draw")
    ]
    assert ev[:4] == [
        ("flower", 0, t("1f")),
        ("draw", 0, t("3f")),
        ("flower", 0, t("3f")),
        ("draw", 0, t("7m")),
    ]
    assert ev[4:] == [("flower", 1, t("2f")), ("draw", 1, t("9m"))]
    for r in (passes, each):
        assert len(r.hand(0)) == 14 and len(r.hand(1)) == 13


def test_flower_drawn_in_play_is_replaced_from_the_tail_in_a_chain():
    hands = [
        "1s147m258s1234567z",
        "369m147s1234z6z7z2m",
        "369m147s67z28s1m3m6s",
        "1112344678999p",
    ]
    r = mj.Round("gb", hands=hands, draws="4f", replacements="5f7m")
    r.apply(0, A("discard", "1s"))
    pass_all(r)
    ev = [(e["type"], e.get("tile"), e.get("tail")) for e in r.events()[-5:]]
    assert ev == [
        ("draw", t("4f"), False),
        ("flower", t("4f"), None),
        ("draw", t("5f"), True),
        ("flower", t("5f"), None),
        ("draw", t("7m"), True),
    ]
    assert r.drawn == t("7m") and r.flowers(1) == T("45f")
    assert r.observation(2).flowers[1] == T("45f")


def _play_to_the_last_tile(rules, hands, last):
    """Arranges every head draw so that the last wall tile is `last`; everyone discards
    what they draw and passes claims until the final discard."""
    all_tiles = [k for k in range(34) for _ in range(4)]
    for h in hands:
        for x in T(h):
            all_tiles.remove(x)
    all_tiles.remove(t(last))
    # Honors first would make pungs likely; interleave suits so claims stay rare.
    head = sorted(all_tiles, key=lambda x: (x % 9, x)) + [t(last)]
    r = mj.Round(rules, hands=hands, draws=head)
    r.apply(0, A("discard", r.hand(0)[-1]))
    pass_all(r)
    while r.wall_remaining > 0:
        discard_drawn(r)
    return r


LAST = [
    "9m147p258s1234567z",
    "11s258m369p4s1234z",
    "369m147m258p67z2s3s",
    "5679s589p67z258m1m",
]


@pytest.mark.parametrize("option, pung", [("win", False), ("any", True)])
def test_the_final_discard_can_only_be_won(option, pung):
    rules = mj.RuleSet("classic", last_discard_claims=option)
    r = _play_to_the_last_tile(rules, LAST, "1s")
    assert r.wall_remaining == 0
    last_drawer = r.turn
    r.apply(last_drawer, A("discard", r.drawn))
    offered = {s: legal(r, s) for s in r.pending}
    has_pung = any(a.kind == "pung" for acts in offered.values() for a in acts)
    assert has_pung == pung
    assert all(a.kind != "kong" for acts in offered.values() for a in acts)
    pass_all(r)
    assert r.is_over and r.result["exhaustive"]
    assert r.events()[-1] == {"type": "exhaustive_draw"}
    assert r.result["deltas"] == [0, 0, 0, 0]


def test_illegal_actions_raise_and_change_nothing():
    r = mj.Round("gb", hands=PRIORITY)
    n = len(r.events())
    with pytest.raises(mj.IllegalActionError, match="nothing to decide"):
        r.apply(2, A("pass"))
    with pytest.raises(mj.IllegalActionError, match="not legal"):
        r.apply(0, A("discard", "9p"))
    with pytest.raises(ValueError, match="seat must be a seat"):
        r.apply(4, A("pass"))
    with pytest.raises(TypeError, match="majiang.Action"):
        r.apply(0, "discard 5p")
    with pytest.raises(mj.IllegalActionError, match="unknown action kind"):
        A("riichi")
    assert len(r.events()) == n
    r.apply(0, A("discard", "5p"))
    with pytest.raises(mj.IllegalActionError, match="not legal"):
        r.apply(3, A("pung", "5p"))
    with pytest.raises(mj.IllegalActionError, match="chow 345p"):
        r.apply(1, A("chow", "3p"))


def test_penalties_under_mcr_1998():
    rules = mj.RuleSet("gb", penalty_mode="mcr_1998")
    r = mj.Round(rules, hands=PRIORITY)
    # Seat 0's hand is not a win: 诈和, 20 to each other seat; play goes on.
    r.apply(0, A("win"))
    assert r.events()[-1] == {"type": "penalty", "seat": 0, "each": 20}
    assert r.phase == "turn" and r.turn == 0
    assert r.observation(2).barred == [True, False, False, False]
    with pytest.raises(mj.IllegalActionError):
        r.apply(0, A("win"))  # a barred seat's declarations are refused
    r.apply(0, A("discard", "5p"))
    for s in (1, 2, 3):
        r.apply(s, A("pass"))
    while not r.is_over:
        if r.phase == "turn":
            discard_drawn(r)
        else:
            pass_all(r)
    assert r.result["penalties"] == [-60, 20, 20, 20]
    assert sum(r.result["deltas"]) == 0
    # Without the option a false declaration is refused.
    r = mj.Round("gb", hands=PRIORITY)
    with pytest.raises(mj.IllegalActionError):
        r.apply(0, A("win"))


def test_classic_declared_ready_locks_and_plays_automatically():
    # Seat 0 (dealer) holds 123p 456p 789p 2345s + 9m 1z 1z... discard 9m to be ready on
    # 2s/5s with a big hand (清龙 + 平和...).
    hands = [
        "123456789p2345s9m",
        "258m369s1234z6z7z1m",
        "369m147s67z28s1m3m6s",
        "147m258m36s1234z7z",
    ]
    r = mj.Round("classic", hands=hands, draws="1z2z3z6z")
    assert A("ready", "9m") in legal(r, 0)
    assert A("ready", "2s") in legal(r, 0)  # 9m single wait
    assert A("ready", "1p") not in legal(r, 0)
    r.apply(0, A("ready", "9m"))
    assert {"type": "discard", "seat": 0, "tile": t("9m"), "ready": True} in r.events()
    pass_all(r)
    for _ in range(3):
        discard_drawn(r)
    # Seat 0 drew 6z: it cannot win, so it was discarded automatically.
    ev = r.events()
    i = max(k for k, e in enumerate(ev) if e["type"] == "draw" and e["seat"] == 0)
    assert ev[i + 1] == {"type": "discard", "seat": 0, "tile": t("6z"), "ready": False}
    assert r.observation(1).ready == [True, False, False, False]
    assert 0 not in r.pending


def test_gb_has_no_ready_declaration_unless_enabled():
    hands = [
        "123456789p2345s9m",
        "258m369s1234z6z7z1m",
        "369m147s67z28s1m3m6s",
        "147m258m36s1234z7z",
    ]
    r = mj.Round("gb", hands=hands)
    assert all(a.kind != "ready" for a in legal(r, 0))
    r = mj.Round(mj.RuleSet("gb", ting_enabled=True), hands=hands)
    assert A("ready", "9m") in legal(r, 0)


def test_several_robbers_the_first_counter_clockwise_from_the_konger_wins():
    # docs/rules/gb.md S4: seats 2 and 3 can both rob seat 1's added kong; seat 2 comes first.
    hands = [ROB[0], ROB[1], "123456789m46p11s", ROB[3]]
    r = mj.Round("gb", hands=hands, draws="1z2z3z5p")
    r.apply(0, A("discard", "5p"))
    r.apply(2, A("pass"))
    r.apply(3, A("pass"))
    r.apply(1, A("pung", "5p"))
    r.apply(1, A("discard", "1s"))
    pass_all(r)
    for _ in range(3):
        discard_drawn(r)
    r.apply(1, A("added_kong", "5p"))
    assert r.pending == (2, 3)
    r.apply(3, A("win"))
    r.apply(2, A("win"))
    (win,) = r.result["wins"]
    assert (win["seat"], win["how"]) == (2, "robbed_kong")
    names = [f["name_zh"] for f in win["fans"]]
    assert "抢杠和" in names and "和绝张" not in names
    F = win["fan_total"]
    assert r.result["deltas"] == [-8, -(8 + F), 24 + F, -8]


READY = [
    "123456789p2345s9m",
    "258m369s1234z6z7z1m",
    "369m147s67z28s1m3m6s",
    "147m258m36s1234z7z",
]


def test_classic_ready_hand_wins_automatically_with_the_ready_fan():
    r = mj.Round("classic", hands=READY, draws="1z2z3z5s")
    r.apply(0, A("ready", "9m"))
    pass_all(r)
    for _ in range(3):
        discard_drawn(r)
    # Seat 0 drew 5s: the win is taken without asking.
    assert r.is_over
    (win,) = r.result["wins"]
    assert (win["seat"], win["how"], win["tile"]) == (0, "self_drawn", t("5s"))
    assert "听牌" in [f["name_zh"] for f in win["fans"]]
    # docs/rules/classic.md E3: 清龙 16 + 不求人 4 + 平和 2 + 缺一门 1 + 听 1 = 24.
    assert win["fan_total"] == 24
    assert r.result["deltas"] == [96, -32, -32, -32]


def test_classic_ready_can_be_left_to_the_player():
    rules = mj.RuleSet("classic", ting_auto_win=False, ting_auto_discard=False)
    r = mj.Round(rules, hands=READY, draws="1z2z3z6z4z5z7z5s")
    r.apply(0, A("ready", "9m"))
    pass_all(r)
    for _ in range(3):
        discard_drawn(r)
    assert r.turn == 0 and r.legal_actions(0) == [A("discard", "6z")]
    r.apply(0, A("discard", "6z"))
    pass_all(r)
    for _ in range(3):
        discard_drawn(r)
    assert r.turn == 0 and r.legal_actions(0) == [A("win"), A("discard", "5s")]


def test_classic_ready_needing_a_reachable_minimum():
    # 234m 567m 345p 78s 11z waits on 6s/9s with 4 fan at most (docs/rules/classic.md E2): ready in
    # shape, but not when the wait must reach the 8-fan minimum.
    hands = [
        "234m567m345p78s11z9p",
        "258m369s1234z6z7z1m",
        "369m147s67z28s1m3m6s",
        "147m258m36s234z7z5z",
    ]
    assert A("ready", "9p") in mj.Round("classic", hands=hands).legal_actions(0)
    strict = mj.RuleSet("classic", ting_requires_reachable_min_fan=True)
    assert A("ready", "9p") not in mj.Round(strict, hands=hands).legal_actions(0)
    casual = mj.RuleSet("classic", ting_requires_reachable_min_fan=True, min_fan=1)
    assert A("ready", "9p") in mj.Round(casual, hands=hands).legal_actions(0)


def test_fan_times_base_settlement():
    rules = mj.RuleSet("gb", settlement="fan_times_base")
    r = mj.Round(rules, hands=PRIORITY)
    r.apply(0, A("discard", "5p"))
    r.apply(3, A("win"))
    pass_all(r)
    F = r.result["wins"][0]["fan_total"]
    assert r.result["deltas"] == [-F, 0, 0, F]


def test_the_dealer_may_win_on_the_dealt_tiles():
    hands = [
        "11123456789999p",
        "258m369s1234z6z7z1m",
        "369m147s67z28s1m3m6s",
        "147m258m36s1234z7z",
    ]
    r = mj.Round("gb", hands=hands)
    assert A("win") in r.legal_actions(0)
    r.apply(0, A("win"))
    (win,) = r.result["wins"]
    assert win["how"] == "self_drawn" and win["seat"] == 0
