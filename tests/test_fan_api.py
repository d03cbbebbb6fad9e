"""The Python fan API: results, options, rule sets, the batch entry point, bad input."""

from __future__ import annotations

import numpy as np
import pytest

import majiang as mj


def names(r: mj.FanResult) -> list[str]:
    return [f.name_zh for f in r.fans]


def test_result_fields_and_lookup():
    r = mj.evaluate_fan("123m456p789s2255z", "5z")
    assert names(r) == ["花龙", "五门齐", "箭刻", "门前清"]
    f = r.fans[0]
    assert (f.id, f.name, f.name_zh, f.points, f.count, f.total) == (
        39,
        "Mixed Straight",
        "花龙",
        8,
        1,
        8,
    )
    assert r.total == r.total_without_flowers == 18 and r.meets_minimum
    assert r.count("Mixed Straight") == 1 and r.count("箭刻") == 1 and r.count(62) == 1
    assert "All Types" in r and "Seven Pairs" not in r and len(r) == 4
    d = r.to_dict()
    assert d["total"] == 18 and [x["id"] for x in d["fans"]] == [39, 51, 59, 62]
    assert "花龙" in repr(r) and "Mixed Straight" in repr(f)
    with pytest.raises(ValueError, match="no fan named"):
        r.count("no such fan")


def test_hands_as_codes_and_melds():
    codes = mj.parse_tiles("234m567m55p78s")
    r = mj.evaluate_fan(codes, mj.parse_tiles("6s")[0], [mj.Meld("pung", "111z")], seat_wind="E")
    assert "门风刻" in names(r) and "圈风刻" in names(r)
    r = mj.evaluate_fan(codes, "6s", [mj.Meld("pung", "111z")], seat_wind=1, prevalent_wind="S")
    assert "门风刻" not in names(r) and "幺九刻" in names(r)


def test_flowers_and_minimum_option():
    melds = [mj.Meld("pung", "555z"), mj.Meld("pung", "666z")]
    r = mj.evaluate_fan("234m67s55p", "8s", melds, flowers=2)
    assert r.total == 8 and r.total_without_flowers == 6 and not r.meets_minimum
    botzone = mj.RuleSet("gb", flowers_count_toward_min=True)
    assert mj.evaluate_fan("234m67s55p", "8s", melds, flowers=2, rules=botzone).meets_minimum
    low = mj.RuleSet("gb", min_fan=6)
    assert mj.evaluate_fan("234m67s55p", "8s", melds, rules=low).meets_minimum


def test_mcr_options():
    kongs = [mj.Meld("concealed_kong", "1111m"), mj.Meld("kong", "2222p")]
    r = mj.evaluate_fan("345s567m4z", "4z", kongs)
    assert "明暗杠" in names(r)
    r = mj.evaluate_fan(
        "345s567m4z", "4z", kongs, rules=mj.RuleSet("gb", mcr_separate_mixed_kongs=True)
    )
    assert "明暗杠" not in names(r) and {"暗杠", "明杠"} <= set(names(r))

    terminals = "111m111p111s99m99p"
    assert "三同刻" in names(mj.evaluate_fan(terminals, "9m"))
    strict = mj.RuleSet("gb", mcr_all_terminals_no_triple_pung=True)
    assert "三同刻" not in names(mj.evaluate_fan(terminals, "9m", rules=strict))

    # 9p is held four times: the only live wait is 8p (closed).
    hand = "1112345679999p"
    assert "独听・嵌张" not in names(mj.evaluate_fan(hand, "8p", self_drawn=True))
    exact = mj.RuleSet("gb", mcr_exact_waits=True)
    assert "独听・嵌张" in names(mj.evaluate_fan(hand, "8p", self_drawn=True, rules=exact))


def test_impossible_flags():
    with pytest.raises(mj.InvalidHandError, match="抢杠和"):
        mj.evaluate_fan("123m456p789s2255z", "5z", about_kong=True)
    with pytest.raises(mj.InvalidHandError, match="杠上开花"):
        mj.evaluate_fan("123m456p789s2255z", "5z", about_kong=True, self_drawn=True)
    with pytest.raises(mj.InvalidHandError, match="海底捞月"):
        mj.evaluate_fan("123m456p789s2255z", "5z", about_kong=True, wall_last=True)
    with pytest.raises(mj.InvalidHandError, match="和绝张"):
        mj.evaluate_fan("123m456p789s2255z", "5z", fourth_tile=True)
    lenient = mj.RuleSet("gb", correct_impossible_flags=True)
    r = mj.evaluate_fan("123m456p789s2255z", "5z", fourth_tile=True, rules=lenient)
    assert "和绝张" not in names(r)
    # Three copies in the player's own melds: necessarily the last tile.
    melds = [mj.Meld("chow", "123m"), mj.Meld("chow", "234m"), mj.Meld("chow", "345m")]
    assert "和绝张" in names(mj.evaluate_fan("12m55p", "3m", melds))


def test_kong_replacement_that_is_the_last_wall_tile():
    # A kong declared with one tile left: its replacement is the last wall tile.
    from MahjongGB import MahjongFanCalculator

    hand, win, melds = "345m678m789m9m", "9m", [mj.Meld("concealed_kong", "2222m")]
    r = mj.evaluate_fan(
        hand, win, melds, self_drawn=True, about_kong=True, wall_last=True, seat_wind=1
    )
    ref = MahjongFanCalculator(
        (("GANG", "W2", 0),),
        ("W3", "W4", "W5", "W6", "W7", "W8", "W7", "W8", "W9", "W9"),
        "W9",
        0,
        True,
        False,
        True,
        True,
        1,
        0,
        verbose=True,
    )
    assert sorted((f.name_zh, f.count) for f in r.fans) == sorted((x[2], x[1]) for x in ref)
    assert {"杠上开花", "妙手回春"} <= {f.name_zh for f in r.fans}


def test_classic_rules():
    r = mj.evaluate_fan("234m567m345p78s11z", "6s", declared_ready=True, rules="classic")
    assert names(r)[-1] == "听牌" and r.total == 4 and not r.meets_minimum
    with pytest.raises(mj.InvalidHandError, match="without flowers"):
        mj.evaluate_fan("234m567m345p78s11z", "6s", flowers=1, rules="classic")
    with pytest.raises(mj.InvalidHandError, match="报听"):
        mj.evaluate_fan("234m567m345p78s11z", "6s", declared_ready=True)
    casual = mj.RuleSet("classic", min_fan=1)
    assert mj.evaluate_fan(
        "234m567m345p78s11z", "6s", declared_ready=True, rules=casual
    ).meets_minimum
    with pytest.raises(mj.RuleError):
        mj.evaluate_fan("234m567m345p78s11z", "6s", rules="huainan")


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(hand="123m456p789s225z", win_tile="5z"), "concealed tiles"),
        (dict(hand="123m456p789s2255z", win_tile="1f"), "flower"),
        (dict(hand="123m456p789s2255z", win_tile="5z", seat_wind=4), "seat_wind 4"),
        (dict(hand="123m456p789s2255z", win_tile="5z", prevalent_wind=-1), "prevalent_wind -1"),
        (dict(hand="123m456p789s2255z", win_tile="5z", seat_wind="X"), "not a wind"),
        (dict(hand="123m456p789s2255z", win_tile="5z", flowers=9), "at most 8"),
        (dict(hand="123m456p789s2255z", win_tile="5z", flowers=-1), "flowers"),
        (dict(hand="123m456p789s2255z", win_tile=True), "bool"),
        (dict(hand=b"123m", win_tile="5z"), "bytes"),
        (dict(hand="1111m456p789s122z", win_tile="1m"), "5 copies of 1m"),
        (dict(hand="123m456p789s2255z", win_tile="5z", melds="123m"), "Meld"),
    ],
)
def test_bad_input_names_the_problem(kwargs, message):
    with pytest.raises(mj.InvalidHandError, match=message):
        mj.evaluate_fan(**kwargs)


def test_melds_that_are_not_melds():
    with pytest.raises(mj.InvalidHandError, match="honors"):
        mj.Meld("chow", "123z")
    with pytest.raises(mj.InvalidHandError, match="consecutive"):
        mj.Meld("chow", "891m")
    with pytest.raises(mj.NotWinningError):
        mj.evaluate_fan("123m456p789s1122z", "3z")


def test_catalog():
    cat = mj.fan_catalog()
    assert [f["id"] for f in cat] == list(range(1, 84))
    by = {f["id"]: f for f in cat}
    assert by[1]["name"] == "Big Four Winds" and by[1]["points"] == 88
    assert by[82]["name_zh"] == "明暗杠" and by[82]["points"] == 5
    assert by[83]["name_zh"] == "听牌"
    assert "No Honors" in by[22]["excludes"]
    assert sum(f["points"] for f in cat if f["id"] <= 80) == 1726


def test_batch_matches_single_calls_and_flags_errors():
    hands = ["123m456p789s2255z", "234m567m345p78s11z", "123m456p789s1122z"]
    wins = ["5z", "6s", "3z"]
    counts = np.zeros((3, 34), dtype=np.uint8)
    for i, h in enumerate(hands):
        np.add.at(counts[i], mj.parse_tiles(h), 1)
    win = np.array([mj.parse_tiles(w)[0] for w in wins])
    totals, fans = mj.evaluate_fan_batch(counts, win, flags=mj.FLAG_SELF_DRAWN, seat_wind=[0, 1, 2])
    assert totals.dtype == np.int32 and fans.shape == (3, mj.N_FAN_IDS)
    assert totals[2] == -1 and not fans[2].any()
    for i in range(2):
        r = mj.evaluate_fan(hands[i], wins[i], self_drawn=True, seat_wind=i)
        assert totals[i] == r.total
        assert {int(j): int(fans[i, j]) for j in np.nonzero(fans[i])[0]} == {
            f.id: f.count for f in r.fans
        }
    melds = np.zeros((3, 4, 2), dtype=np.uint8)
    melds[1, 0] = (mj.MELD_PUNG, 27)
    with pytest.raises(mj.InvalidHandError, match="row 1"):
        mj.evaluate_fan_batch(counts, win, melds)
    with pytest.raises(mj.InvalidHandError, match="shape"):
        mj.evaluate_fan_batch(counts[:, :10], win)
    with pytest.raises(mj.InvalidHandError, match="win_tiles"):
        mj.evaluate_fan_batch(counts, win[:2])
    for threads in (1, 2):
        t2, f2 = mj.evaluate_fan_batch(
            counts, win, flags=mj.FLAG_SELF_DRAWN, seat_wind=[0, 1, 2], threads=threads
        )
        assert (t2 == totals).all() and (f2 == fans).all()
    with pytest.raises(ValueError, match="threads"):
        mj.evaluate_fan_batch(counts, win, threads=0)
    with pytest.raises(TypeError, match="threads"):
        mj.evaluate_fan_batch(counts, win, threads="2")
    empty_totals, empty_fans = mj.evaluate_fan_batch(np.zeros((0, 34)), np.zeros(0))
    assert empty_totals.shape == (0,) and empty_fans.shape == (0, mj.N_FAN_IDS)
