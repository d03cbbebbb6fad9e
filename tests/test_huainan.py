"""Huainan (docs/rules/huainan.md): the worked examples H0-H20 and a rule test per scoring
decision."""

import pytest

import majiang as mj
from majiang import _core

M = mj.Meld


def score(hand, win, wild, melds=None, **facts):
    return mj.score_huainan(hand, win, melds, wild=wild, **facts)


def fv(s):
    return (s.form, s.value)


# --- H0-H20 ---------------------------------------------------------------------------


def test_h0_picking_the_bao():
    assert mj.bao_indicator_index(7) == 122
    assert mj.bao_indicator_index(2) == 132 and mj.bao_indicator_index(12) == 112
    t = mj.parse_tiles
    assert mj.bao_for_indicator("9m") == t("1m")[0]
    assert mj.bao_for_indicator("4z") == t("1z")[0]
    assert mj.bao_for_indicator("7z") == t("5z")[0]
    assert mj.bao_for_indicator("3s") == t("4s")[0]
    assert mj.bao_for_indicator("5z") == t("6z")[0]
    assert sorted(mj.bao_for_indicator(i) for i in range(34)) == list(range(34))
    with pytest.raises(mj.InvalidHandError, match="indicator"):
        mj.bao_for_indicator("1f")
    with pytest.raises(mj.InvalidHandError, match="2-12"):
        mj.bao_indicator_index(13)


def test_h1_h2_plain_natural():
    assert fv(score("123m456m789s234p9s", "9s", "5p", self_drawn=True)) == ("pinghu_zimo", 2)
    assert fv(score("123m456m789s234p9s", "9s", "5p")) == ("pinghu", 1)


def test_h3_holding_a_bao_refuses_a_discard_win():
    with pytest.raises(mj.NotWinningError, match="holding a 宝"):
        score("123m456m789s23p9s5p", "9s", "5p")
    s = score("123m456m789s23p9s5p", "9s", "5p", self_drawn=True)
    assert fv(s) == ("pinghu", 1)
    for win in ("1p", "4p", "5p"):
        assert score("123m456m789s23p9s5p", win, "5p", self_drawn=True).value >= 1


def test_h4_entering_bdt_then_winning():
    # "5p* 9p + 4 sets" already wins (the 宝 as 9p, plain).
    assert fv(score("5p123m456m789s23s9p", "4s", "5p", self_drawn=True)) == ("pinghu", 1)
    assert mj.is_bao_diaotou("5p123m456m789s234s", wild="5p")
    s = score("5p123m456m789s234s", "7z", "5p", self_drawn=True)
    assert fv(s) == ("baodiaotou", 2) and s.form_zh == "宝吊头"


def test_h5_touji_then_baodiaobao():
    s = score("5p123m456m789s234s", "5p", "5p", self_drawn=True, passes=1)
    assert fv(s) == ("baodiaobao", 8)
    assert s.form_value == 4 and s.multipliers == [("touji", 2)]


def test_h6_baodiao_wubao_with_the_bao_as_pair():
    hand = "5p123m456m789m5p67s"
    assert mj.is_bao_diaotou(hand, wild="5p")
    assert fv(score(hand, "8s", "5p", self_drawn=True)) == ("baodiao_wubao", 4)
    assert fv(score(hand, "5s", "5p", self_drawn=True)) == ("baodiao_wubao", 4)
    assert fv(score(hand, "2z", "5p", self_drawn=True)) == ("baodiaotou", 2)


def test_h7_baodiao_wubao_with_the_bao_as_pung():
    hand = "555p123m456m789m7s"
    assert mj.is_bao_diaotou(hand, wild="5p")
    assert fv(score(hand, "7s", "5p", self_drawn=True)) == ("baodiao_wubao", 4)


def test_h8_pengpeng_with_a_bao():
    melds = [M("pung", "111m"), M("pung", "999p")]
    assert not mj.is_bao_diaotou("222s55z3z6z", melds, wild="3z")
    assert fv(score("222s55z3z6z", "6z", "3z", melds, self_drawn=True)) == ("pengpeng", 2)
    # An all-pungs hand won from the 宝吊头 state (3z* + 222s 555z) is labelled 宝吊头.
    s = score("3z222s555z", "6z", "3z", melds, self_drawn=True)
    assert fv(s) == ("baodiaotou", 2)


def test_h9_qing_pengpeng_on_a_discard():
    melds = [M("pung", "111m"), M("pung", "999p")]
    assert fv(score("222s55z66z", "5z", "3z", melds)) == ("qing_pengpeng", 4)


def test_h10_seven_pairs():
    assert fv(score("11m33m55p77p22s44s6z", "6z", "9m", self_drawn=True)) == ("qing_qidui", 8)
    assert fv(score("11m33m55p77p22s44s6z", "6z", "9m")) == ("qing_qidui", 8)
    assert fv(score("11m33m55p77p22s44s9m", "6z", "9m", self_drawn=True)) == ("qidui", 4)


def test_h11_luxury_seven_pairs():
    assert fv(score("1111m33m55p77p22s9m", "4s", "9m", self_drawn=True)) == ("haohua_qidui", 8)
    s = score("1111m33m55p77p22s4s", "4s", "9m", self_drawn=True)
    assert fv(s) == ("qing_haohua_qidui", 16)


def test_h12_shisanlang():
    assert fv(score("147m258p369s1234z", "5z", "9m", self_drawn=True)) == ("shisanlang", 2)
    s = score("147m25p36s123456z", "7z", "9m", self_drawn=True)
    assert fv(s) == ("qixing_shisanlang", 4)
    assert fv(score("147m258p36s2m1234z", "5z", "2m", self_drawn=True)) == ("shisanlang", 2)
    with pytest.raises(mj.NotWinningError):
        score("147m248p369s1234z", "5z", "9m", self_drawn=True)


def test_h13_jiuyao():
    assert fv(score("119m199p19s11356z", "7z", "5s", self_drawn=True)) == ("jiuyao", 4)
    assert fv(score("119m19p19s123456z", "7z", "5s", self_drawn=True)) == ("qixing_jiuyao", 8)


def test_h14_dandiao():
    melds = [M("chow", "123m"), M("pung", "444p"), M("pung", "777s"), M("chow", "789p")]
    s = score("3z", "3z", "5s", melds)
    assert fv(s) == ("pinghu", 2) and s.multipliers == [("dandiao", 2)]
    assert fv(score("3z", "3z", "5s", melds, self_drawn=True)) == ("pinghu_zimo", 4)
    assert mj.is_bao_diaotou("5p", melds, wild="5p")
    assert fv(score("5p", "1z", "5p", melds, self_drawn=True)) == ("baodiaotou", 4)


def test_h15_robbing_a_kong_two_robbers():
    b = score("5p123m456m789p234s", "8s", "5p", robbed_kong=True)
    assert fv(b) == ("baodiaotou", 4)
    d = score("11z234p678p789m79s", "8s", "5p", robbed_kong=True)
    assert fv(d) == ("pinghu", 2)
    assert ("qianggang", 2) in b.multipliers and ("qianggang", 2) in d.multipliers


def test_h16_tianhu():
    s = mj.score_huainan("123m456m78m5p234s11z", wild="5p", heavenly=True)
    assert fv(s) == ("pinghu", 8) and s.multipliers == [("tianhu", 8)]


def test_h17_dihu_hits_the_cap():
    s = score("11m33m55p77p22s44s6z", "6z", "9m", earthly=True)
    assert s.raw_value == 64 and s.value == 64
    r = mj.RuleSet("huainan", cap=32)
    assert (
        mj.score_huainan("11m33m55p77p22s44s6z", "6z", wild="9m", earthly=True, rules=r).value == 32
    )


def test_h18_gangkai_and_feibao():
    melds = [M("concealed_kong", "7777z")]
    s = score("123m456p78s99m", "9s", "3s", melds, replacement=True, bao_discarded=1)
    assert fv(s) == ("pinghu_zimo", 8)
    assert s.multipliers == [("gangkai", 2), ("feibao", 2)]
    s2 = score("123m456p78s99m", "9s", "3s", melds, replacement=True, bao_discarded=2)
    assert s2.value == 16


def test_h19_jiebao_and_sigebao():
    assert fv(mj.score_huainan_special("jiebao")) == ("jiebao", 16)
    assert fv(mj.score_huainan_special("sigebao")) == ("sigebao", 16)
    assert mj.score_huainan_special("sigebao").form_zh == "四个宝"
    with pytest.raises(mj.InvalidHandError):
        mj.score_huainan_special("pinghu")


def test_h20_discarded_bao_and_discard_rules():
    # A discarded 宝 is never an ordinary discard win.
    with pytest.raises(mj.NotWinningError, match="接宝"):
        score("123m456m789s234p5p", "5p", "5p")


# --- one rule test per scoring decision --------------------------------------------


def test_every_decision_is_an_option():
    opts = mj.RuleSet("huainan").options()
    expected = {
        "bao_wild_in_13lang": True,  # D-7
        "bao_wild_in_jiuyao": True,  # D-7
        "bao_wild_fifth_copy": True,  # D-7
        "bao_in_melds": False,  # D-8
        "discarded_bao_claimable": False,  # D-9
        "discard_wins": "allowed_without_bao",  # D-10
        "discard_win_requires_no_bao": True,  # D-10
        "plain_discard_win": True,  # D-10
        "jiuyao_allows_pung_melds": True,  # D-15
        "guo_hu_lock": True,  # D-16
        "kong_points_on_draw": False,  # D-18
        "dihu_definition": "dealer_first_discard",  # D-19
        "touji_per_pass": False,  # D-20
        "qixing_jiuyao_all_honors": True,  # D-21
        "jiebao": True,  # D-22
        "sigebao": True,  # D-23
        "form_pinghu": 1,  # D-24
        "base_points": 1,  # D-25
        "scoring_mode": "multiplicative",  # D-25
        "cap": 64,  # D-25
        "dealer_multiplier": 1,  # D-26
        "kong_points_ming": 1,  # D-27
        "kong_points_an": 2,  # D-27
    }
    for k, v in expected.items():
        assert opts[k] == v, k
    with pytest.raises(mj.RuleError):
        mj.RuleSet("huainan", discard_wins="sometimes")


def test_d7_bao_wild_in_13lang_and_jiuyao():
    hand, wild = "147m258p36s2m1234z", "2m"
    r = mj.RuleSet("huainan", bao_wild_in_13lang=False)
    with pytest.raises(mj.NotWinningError):
        mj.score_huainan(hand, "5z", wild=wild, self_drawn=True, rules=r)
    # 九幺 with a 5s 宝 standing for a terminal.
    assert score("119m19p19s123456z", "5s", "5s", self_drawn=True).form == "qixing_jiuyao"
    r = mj.RuleSet("huainan", bao_wild_in_jiuyao=False)
    with pytest.raises(mj.NotWinningError):
        mj.score_huainan("119m19p19s123456z", "5s", wild="5s", self_drawn=True, rules=r)


def test_d7_fifth_copy():
    # 1111m and one 宝: the hand reads only with the 宝 as a fifth 1m (pair 11m, pung 111m).
    hand = "1111m456p789p123s"
    assert score(hand, "5z", "5z", self_drawn=True).form == "pinghu"
    r = mj.RuleSet("huainan", bao_wild_fifth_copy=False)
    with pytest.raises(mj.NotWinningError):
        mj.score_huainan(hand, "5z", wild="5z", self_drawn=True, rules=r)
    # Two 宝 there: 1m + 宝 + 宝 may still read 1m 2m 3m.
    assert mj.score_huainan("1111m456p789p99s5z", "5z", wild="5z", self_drawn=True, rules=r)


def test_d8_bao_never_in_a_meld():
    with pytest.raises(mj.InvalidHandError, match="meld"):
        score("123m456m789s9s", "9s", "5p", [M("pung", "555p")], self_drawn=True)
    r = mj.RuleSet("huainan", bao_in_melds=True)
    s = mj.score_huainan(
        "123m456m789s9s", "9s", [M("pung", "555p")], wild="5p", self_drawn=True, rules=r
    )
    assert s.form == "pinghu_zimo"


def test_d10_discard_win_switches():
    none = mj.RuleSet("huainan", discard_wins="none")
    with pytest.raises(mj.NotWinningError, match="discard"):
        mj.score_huainan("123m456m789s234p9s", "9s", wild="5p", rules=none)
    plain = mj.RuleSet("huainan", plain_discard_win=False)
    with pytest.raises(mj.NotWinningError, match="plain"):
        mj.score_huainan("123m456m789s234p9s", "9s", wild="5p", rules=plain)
    assert mj.score_huainan("11m33m55p77p22s44s6z", "6z", wild="9m", rules=plain).value == 8
    lax = mj.RuleSet("huainan", discard_win_requires_no_bao=False)
    assert mj.score_huainan("123m456m789s23p9s5p", "9s", wild="5p", rules=lax).form == "pinghu"


def test_d15_jiuyao_pung_melds():
    melds = [M("pung", "111z")]
    assert score("119m19p19s234z", "4z", "5s", melds, self_drawn=True).form.endswith("jiuyao")
    r = mj.RuleSet("huainan", jiuyao_allows_pung_melds=False)
    with pytest.raises(mj.NotWinningError):
        mj.score_huainan("119m19p19s234z", "4z", melds, wild="5s", self_drawn=True, rules=r)


def test_d19_dihu_definition():
    with pytest.raises(mj.InvalidHandError, match="地糊"):
        score("11m33m55p77p22s44s6z", "6z", "9m", earthly=True, self_drawn=True)
    r = mj.RuleSet("huainan", dihu_definition="first_self_draw")
    s = mj.score_huainan(
        "11m33m55p77p22s44s6z", "6z", wild="9m", earthly=True, self_drawn=True, rules=r
    )
    assert ("dihu", 8) in s.multipliers


def test_d20_touji_counts_passes():
    hand = "5p123m456m789s234s"
    assert score(hand, "7z", "5p", self_drawn=True, passes=0).multipliers == []
    assert score(hand, "7z", "5p", self_drawn=True, passes=3).value == 4
    r = mj.RuleSet("huainan", touji_per_pass=True)
    assert mj.score_huainan(hand, "7z", wild="5p", self_drawn=True, passes=3, rules=r).value == 16
    # Passes outside the 宝吊头 state do not count.
    assert score("123m456m789s234p9s", "9s", "5p", self_drawn=True, passes=2).value == 2


def test_d21_qixing_jiuyao_switch():
    r = mj.RuleSet("huainan", qixing_jiuyao_all_honors=False)
    s = mj.score_huainan("119m19p19s123456z", "7z", wild="5s", self_drawn=True, rules=r)
    assert fv(s) == ("jiuyao", 4)


def test_d22_d23_specials_switch_off():
    with pytest.raises(mj.NotWinningError):
        mj.score_huainan_special("jiebao", rules=mj.RuleSet("huainan", jiebao=False))
    with pytest.raises(mj.NotWinningError):
        mj.score_huainan_special("sigebao", rules=mj.RuleSet("huainan", sigebao=False))
    r = mj.RuleSet("huainan", special_sigebao=24)
    assert mj.score_huainan_special("sigebao", rules=r).value == 24


def test_d25_additive_scoring_and_values():
    melds = [M("concealed_kong", "7777z")]
    r = mj.RuleSet("huainan", scoring_mode="additive")
    s = mj.score_huainan(
        "123m456p78s99m", "9s", melds, wild="3s", replacement=True, bao_discarded=1, rules=r
    )
    assert s.value == 6
    r2 = mj.RuleSet("huainan", form_baodiaotou=3)
    assert (
        mj.score_huainan("5p123m456m789s234s", "7z", wild="5p", self_drawn=True, rules=r2).value
        == 3
    )


def test_bad_input_is_named():
    with pytest.raises(mj.InvalidHandError, match="win_tile"):
        mj.score_huainan("123m456m789s234p9s", wild="5p")
    with pytest.raises(mj.InvalidHandError):
        mj.score_huainan("123m456m789s234p", "9s", wild="5p")
    with pytest.raises(mj.InvalidHandError, match="宝"):
        mj.score_huainan("123m456m789s234p9s", "9s", wild="1f")
    with pytest.raises(mj.InvalidHandError, match="robbed"):
        mj.score_huainan("123m456m789s234p9s", "9s", wild="5p", robbed_kong=True, self_drawn=True)
    with pytest.raises(mj.InvalidHandError, match="passes"):
        mj.score_huainan("123m456m789s234p9s", "9s", wild="5p", passes=-1)
    with pytest.raises(mj.RuleError, match="huainan"):
        mj.score_huainan("123m456m789s234p9s", "9s", wild="5p", rules="gb")
    with pytest.raises(mj.InvalidHandError, match="waiting"):
        mj.is_bao_diaotou("5p123m456m789s234s9s", wild="5p")
    assert "宝吊头" in repr(
        mj.score_huainan("5p123m456m789s234s", "7z", wild="5p", self_drawn=True)
    )


def test_flow_decisions_are_table_options():
    o = mj.RuleSet("huainan").options()
    assert o["flowers"] is False  # D-1: 136 tiles
    assert o["wall_stacks_per_side"] == 17  # D-3
    assert o["break_throw"] == "single"  # D-3
    assert o["dealer_rotation"] == "winner_deals"  # D-2
    assert o["last_discard_claims"] == "win"  # D-11
    assert o["kong_lock_after_claim"] == "chi_peng"  # D-13
    assert o["rob_added_kong"] is True and o["multi_winner_on_rob"] is True  # D-17
    assert o["single_winner_headbump"] is True  # §7.2: one winner on a discard
    assert o["hands_per_match"] == 16  # D-28
    assert (
        mj.RuleSet("huainan", kong_lock_after_claim="chi").options()["kong_lock_after_claim"]
        == "chi"
    )


def test_wall_and_kong_decisions_are_options():
    o = mj.RuleSet("huainan").options()
    assert o["reserved_tiles"] == 0  # D-4: no dead wall
    assert o["bao_indicator_throw"] == "separate_after_deal"  # D-5
    assert o["bao_indicator_count_from"] == "tail"  # D-5
    assert o["bao_indicator_tile"] == "upper"  # D-5
    assert o["bao_indicator_stays_in_wall"] is True  # D-6
    assert o["added_kong_tile"] == "held_or_drawn"  # D-12
    assert o["kong_on_empty_wall"] is False  # D-14
    assert o["robbable_kongs"] == "bu_gang"  # D-17
    assert o["dealer_after_draw"] == "same"  # D-2
    with pytest.raises(mj.RuleError, match="bao_indicator_tile"):
        mj.RuleSet("huainan", bao_indicator_tile="middle")
    with pytest.raises(mj.RuleError, match="D-1"):
        mj.Game(rules=mj.RuleSet("huainan", flowers=True), seed=1).play()


def test_alternative_wall_and_kong_rules_play_cleanly():
    """Every alternative of D-4/5/6/12/13/14/17/18 at once: the Rust invariant checks hold
    (tiles conserved, legal actions only) and the reserve is never drawn."""
    r = mj.RuleSet(
        "huainan",
        reserved_tiles=16,
        bao_indicator_throw="break_dice",
        bao_indicator_count_from="head",
        bao_indicator_tile="lower",
        bao_indicator_stays_in_wall=False,
        added_kong_tile="just_drawn",
        kong_on_empty_wall=True,
        kong_lock_after_claim="chi",
        kong_points_on_draw=True,
        robbable_kongs="bu_gang_zhi_gang",
    )
    out = _core.simulate_hands(1500, rules=r, bots=["efficiency"] * 4, seed=5, check=True)
    assert out["violations"] == 0, out["violation_examples"]
    assert out["scores"].sum(axis=1).tolist() == [0] * 1500
    res = mj.simulate(300, rules=r, bots="efficiency", seed=5)
    assert (res.scores.sum(axis=1) == 0).all()
