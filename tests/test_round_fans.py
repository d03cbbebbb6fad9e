"""What the table tells the fan evaluator: the minimum, flowers, 杠上开花, 和绝张,
妙手回春 / 海底捞月, and the payments that follow."""

import majiang as mj
from roundkit import A, T, discard_drawn, pass_all, t


def fans(win):
    return {f["name_zh"]: f["points"] * f["count"] for f in win["fans"]}


# Seat 3 waits on 6s/9s with a 2-fan hand (门前清 only on a discard).
CHEAP = [
    "9s147m258p1234567z",
    "369m147p1234z6z9p1s",
    "258m369p567z4s5s2s3s",
    "123m345p567s78s55z",
]


def test_a_win_under_the_minimum_is_not_offered():
    r = mj.Round("gb", hands=CHEAP)
    r.apply(0, A("discard", "9s"))
    assert A("win") not in r.legal_actions(3)
    r = mj.Round(mj.RuleSet("gb", min_fan=1), hands=CHEAP)
    r.apply(0, A("discard", "9s"))
    assert A("win") in r.legal_actions(3)
    r.apply(3, A("win"))
    pass_all(r)
    (win,) = r.result["wins"]
    assert fans(win) == {"门前清": 2}
    assert r.result["deltas"] == [-10, -8, -8, 26]


# Seat 3 holds 九莲宝灯 (waiting on every 筒) and two flowers, replaced at the deal.
FLOWERS = [
    "5p147m258s1234567z",
    "369m147s1234z6z7z2m",
    "258m369s567z1m2m3m4m",
    "11123456789p12f",
]


def test_flowers_are_paid_not_counted_toward_the_minimum():
    r = mj.Round("gb", hands=FLOWERS, replacements="99p")
    assert r.hand(3) == T("1112345678999p") and r.flowers(3) == T("12f")
    r.apply(0, A("discard", "5p"))
    r.apply(3, A("win"))
    pass_all(r)
    (win,) = r.result["wins"]
    assert fans(win)["花牌"] == 2
    F = win["fan_total"]
    assert F == sum(fans(win).values())
    # Discard win: the discarder pays 8 + F (flowers included), the others 8.
    assert r.result["deltas"] == [-(8 + F), -8, -8, 24 + F]


def test_flowers_cannot_lift_a_hand_to_the_minimum():
    # Seat 3 self-draws 9s for a 6-fan hand (不求人 + 平和) holding three flowers:
    # 6 + 3 = 9, but the minimum counts 6.
    hands = [
        "1s147m258p1234567z",
        "369m147p1234z9p5s6z",
        "258m369p567z4s5s1s3s",
        "234m456p678s3m123f",
    ]

    def at_the_draw(rules):
        r = mj.Round(rules, hands=hands, draws="1z2z9s", replacements="3m7s8s")
        assert r.flowers(3) == T("123f") and r.hand(3) == T("23334m456p67788s")
        r.apply(0, A("discard", "1s"))
        pass_all(r)
        discard_drawn(r)
        discard_drawn(r)
        assert r.turn == 3 and r.drawn == t("9s")
        return r

    assert A("win") not in at_the_draw("gb").legal_actions(3)
    r = at_the_draw(mj.RuleSet("gb", flowers_count_toward_min=True))
    r.apply(3, A("win"))
    win = r.result["wins"][0]
    assert fans(win) == {"不求人": 4, "平和": 2, "花牌": 3}
    assert win["fan_total"] == 9


def _kong_then_replacement(draw, replacements):
    hands = [
        "1s147p258s1234567z",
        "2222m345m678m789m",
        "258p369s567z1p4s7s3z",
        "147s369p1234z5z6z9s",
    ]
    r = mj.Round("gb", hands=hands, draws=draw, replacements=replacements)
    r.apply(0, A("discard", "1s"))
    pass_all(r)
    return r


def test_a_win_on_a_kong_replacement_is_out_with_replacement_tile():
    r = _kong_then_replacement("9m", "9m")
    assert r.turn == 1 and r.drawn == t("9m")
    r.apply(1, A("concealed_kong", "2m"))
    assert r.drawn == t("9m") and A("win") in r.legal_actions(1)
    r.apply(1, A("win"))
    (win,) = r.result["wins"]
    assert win["how"] == "self_drawn"
    assert "杠上开花" in fans(win)
    assert "自摸" not in fans(win)


def test_a_kong_replacement_flower_chain_still_counts_as_the_kong():
    r = _kong_then_replacement("9m", "1f9m")
    r.apply(1, A("concealed_kong", "2m"))
    assert r.flowers(1) == T("1f") and r.drawn == t("9m")
    r.apply(1, A("win"))
    assert "杠上开花" in fans(r.result["wins"][0])


def test_a_win_on_a_flower_replacement_is_self_drawn_not_the_kong_fan():
    hands = [
        "1s147p258s1234567z",
        "222m345m678m789m9m",
        "258p369s567z1p4s7s3z",
        "147s369p1234z5z6z9s",
    ]
    r = mj.Round("gb", hands=hands, draws="2f", replacements="9m")
    r.apply(0, A("discard", "1s"))
    pass_all(r)
    assert r.drawn == t("9m") and r.flowers(1) == T("2f")
    r.apply(1, A("win"))
    (win,) = r.result["wins"]
    assert win["how"] == "self_drawn"
    assert "杠上开花" not in fans(win)
    assert "不求人" in fans(win) or "自摸" in fans(win)
    # Self-draw: each of the others pays 8 + F.
    F = win["fan_total"]
    assert r.result["deltas"] == [-(8 + F), 3 * (8 + F), -(8 + F), -(8 + F)]


def test_the_last_copy_is_last_tile():
    hands = [
        "2s147m258p1234567z",
        "22s369m147p1234z9s",
        "369p258m567z48s67s",
        "123456789m11p13s",
    ]
    r = mj.Round("gb", hands=hands, draws="2s")
    r.apply(0, A("discard", "2s"))
    assert A("win") in r.legal_actions(3)
    r.apply(3, A("pass"))
    r.apply(1, A("pung", "2s"))
    pass_all(r)
    r.apply(1, A("discard", "9s"))
    pass_all(r)
    assert r.turn == 2 and r.drawn == t("2s")
    r.apply(2, A("discard", "2s"))
    r.apply(3, A("win"))
    pass_all(r)
    win = r.result["wins"][0]
    assert win["seat"] == 3 and "和绝张" in fans(win)


def _to_the_last_tile(hands, last):
    all_tiles = [k for k in range(34) for _ in range(4)]
    for h in hands:
        for x in T(h):
            all_tiles.remove(x)
    all_tiles.remove(t(last))
    head = sorted(all_tiles, key=lambda x: (x % 9, x)) + [t(last)]
    r = mj.Round("classic", hands=hands, draws=head)
    r.apply(0, A("discard", r.hand(0)[-1]))
    pass_all(r)
    while r.wall_remaining > 0:
        discard_drawn(r)
    return r


def test_self_drawing_the_last_tile():
    hands = [
        "9s147p258s1234567z",
        "258m369p147s1234z",
        "369m147m258p67z6s8s",
        "123456789m11p13s",
    ]
    r = _to_the_last_tile(hands, "2s")
    assert r.turn == 3 and r.drawn == t("2s")
    r.apply(3, A("win"))
    assert "妙手回春" in fans(r.result["wins"][0])


def test_winning_on_the_final_discard():
    hands = [
        "9s147p258s1234567z",
        "123456789m11p13s",
        "369m147m258p67z6s8s",
        "258m369p147s1234z",
    ]
    r = _to_the_last_tile(hands, "2s")
    assert r.turn == 3 and r.drawn == t("2s")
    r.apply(3, A("discard", "2s"))
    assert A("win") in r.legal_actions(1)
    r.apply(1, A("win"))
    pass_all(r)
    win = r.result["wins"][0]
    assert win["seat"] == 1 and "海底捞月" in fans(win)


def test_a_kong_on_the_last_but_one_tile_wins_on_the_last_tile():
    # Seat 2 draws the last-but-one tile, declares a kong with one tile left and wins on the
    # last wall tile as its replacement: 杠上开花 and 妙手回春 both score.
    hands = [
        "9s147p258s1234567z",
        "258p369s147s1234z",
        "2222m345m678m789m",
        "369p147m258s67z6s8s",
    ]
    all_tiles = [k for k in range(34) for _ in range(4)]
    for h in hands:
        for x in T(h):
            all_tiles.remove(x)
    for _ in range(2):
        all_tiles.remove(t("9m"))
    head = sorted(all_tiles, key=lambda x: (x % 9, x)) + T("9m9m")
    r = mj.Round(mj.RuleSet("gb", flowers=False), hands=hands, draws=head)
    r.apply(0, A("discard", r.hand(0)[-1]))
    pass_all(r)
    while r.wall_remaining > 1:
        discard_drawn(r)
    assert r.turn == 2 and r.drawn == t("9m") and r.wall_remaining == 1
    r.apply(2, A("concealed_kong", "2m"))
    assert r.drawn == t("9m") and r.wall_remaining == 0
    r.apply(2, A("win"))
    got = fans(r.result["wins"][0])
    assert got["杠上开花"] == 8 and got["妙手回春"] == 8
    assert "自摸" not in got
