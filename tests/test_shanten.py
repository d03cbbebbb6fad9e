"""Shanten, forms, useful tiles, waits and wins: hand-checked cases per form."""

import random

import numpy as np
import pytest

import majiang as mj

P = mj.parse_tiles


def melds(*specs):
    return [mj.Meld(kind, tiles) for kind, tiles in specs]


FOUR_HONOR_PUNGS = melds(("pung", "111z"), ("pung", "222z"), ("pung", "333z"), ("pung", "444z"))
FOUR_WITH_5Z = melds(("pung", "555z"), ("pung", "222m"), ("pung", "333m"), ("pung", "444m"))


@pytest.mark.parametrize(
    "hand, expected",
    [
        ("123m456p789s1112z", 0),
        ("123m456p789s11122z", -1),
        ("19m19p19s1234567z", 0),
        ("1122334455667m", 0),
        ("147m258p369s1234z", 0),
        ("147m258p369s123m1z", 0),
        ("1111m123456789p", 1),  # the only wait would be a fifth 1m
        ("13579m13579p135s", 4),
    ],
)
def test_shanten_examples(hand, expected):
    assert mj.shanten(hand) == expected


def test_forms_per_hand():
    f = mj.shanten_forms("19m19p19s1234567z")
    assert list(f) == [
        "regular",
        "seven_pairs",
        "thirteen_orphans",
        "honors_knitted",
        "knitted_straight",
    ]
    assert f["thirteen_orphans"] == 0 and f["seven_pairs"] == 6 and f["regular"] == 8
    with_meld = mj.shanten_forms("147m258p369s2z", melds(("pung", "111z")))
    assert set(with_meld) == {"regular", "knitted_straight"}
    assert with_meld["knitted_straight"] == 0
    two = mj.shanten_forms("1m", FOUR_HONOR_PUNGS)
    assert set(two) == {"regular"}


def test_seven_pairs_four_of_a_kind_is_two_pairs():
    assert mj.shanten_forms("1111223344556m")["seven_pairs"] == 0
    assert 5 in mj.waits("1111223344556m")
    assert mj.is_win("11112233445566m")


def test_useful_tiles_and_waits():
    assert mj.useful_tiles("123m456p789s1122z") == P("12z")
    assert mj.waits("1112345678999m") == P("123456789m")
    assert mj.waits("19m19p19s1234567z") == P("19m19p19s1234567z")
    assert mj.waits("147m258p369s1234z") == P("567z")
    assert mj.waits("123m456p789s1357z") == []
    assert mj.useful_tiles("123m456p789s1122z", form="seven_pairs") == P("123m456p789s")


def test_four_copy_limit_counts_melds():
    four = melds(("pung", "111m"), ("pung", "222m"), ("pung", "333m"), ("pung", "444m"))
    assert mj.waits("1m", four) == []
    assert mj.shanten("1m", four) == 1
    other = melds(("pung", "555m"), ("pung", "222m"), ("pung", "333m"), ("pung", "444m"))
    assert mj.waits("1m", other) == [0]
    # A single 9p beside a kong of 9p: no pair of 9p exists.
    assert mj.waits("9p123m456m789m", melds(("pung", "999p"))) == []
    assert 17 not in mj.useful_tiles("9p123m456m789m", melds(("pung", "999p")))
    assert mj.waits("1111m234m456p789p") == [3]


def test_is_win_forms():
    assert mj.is_win("19m19p19s12345677z")
    assert mj.is_win("147m258p369s12345z")
    assert mj.is_win("147m258p369s234m11z")
    assert mj.is_win("147m258p369s11z", melds(("chow", "234m")))
    assert not mj.is_win("123m456p789s11123z")
    three_chows = melds(("chow", "123m"), ("chow", "123m"), ("chow", "123m"), ("pung", "999s"))
    assert mj.is_win("11z", three_chows)


def test_huainan_wilds():
    # Two wild 5z with 123m456p789s and the singles 1z 2z.
    assert mj.shanten("123m456p789s1255z", rules="huainan", wild="5z") == 0
    assert mj.waits("123m456p789s1255z", rules="huainan", wild="5z") == P("125z")
    assert mj.is_win("123m456p789s12555z", rules="huainan", wild=31)
    # Without the wild the same tiles are far from complete.
    assert not mj.is_win("123m456p789s12555z", rules="huainan")
    # Huainan's oracle covers the basic form, seven pairs, 十三浪 and 九幺.
    forms = mj.shanten_forms("19m19p19s1234567z", rules="huainan")
    assert set(forms) == {"regular", "seven_pairs", "shisanlang", "jiuyao"}
    # Seven pairs with a wild pairing a single.
    assert mj.is_win("1122334455667m5z", rules="huainan", wild="5z")
    # A wild may stand for a fifth copy.
    three = melds(("pung", "222p"), ("pung", "333p"), ("pung", "444p"))
    assert mj.is_win("1111m5z", three, rules="huainan", wild="5z")
    assert not mj.is_win("1111m6z", three, rules="huainan", wild="5z")


@pytest.mark.parametrize(
    "call",
    [
        lambda: mj.shanten("123m"),
        lambda: mj.shanten("11111m23456789p"),
        lambda: mj.shanten("123m456p789s1112z1f"),
        lambda: mj.shanten("1m", melds(("pung", "111m"), ("pung", "111m"))),
        lambda: mj.shanten("123m456p789s1112z", ["not a meld"]),
        lambda: mj.shanten(["x"] * 13),
        lambda: mj.useful_tiles("123m456p789s11122z"),
        lambda: mj.waits("123m456p789s11122z"),
        lambda: mj.is_win("123m456p789s1112z"),
        lambda: mj.useful_tiles("123m456p789s1112z", form="pairs"),
        lambda: mj.shanten("123m456p789s1112z", rules="huainan", wild="1f"),
        lambda: mj.shanten("1m", FOUR_WITH_5Z, rules="huainan", wild="5z"),
        lambda: mj.useful_tiles("1m", FOUR_WITH_5Z, form="seven_pairs"),
    ],
)
def test_bad_input_raises_invalid_hand(call):
    with pytest.raises(mj.InvalidHandError):
        call()


class _Code(int):
    """An int subclass: a valid tile code that the short reader leaves to the full one."""


def test_every_hand_spelling_gives_the_same_answers():
    rng = random.Random(11)
    for _ in range(300):
        tiles = sorted(rng.sample(range(136), 13))
        codes = [t // 4 for t in tiles]
        text = mj.format_tiles(codes)
        spellings = [
            codes,
            tuple(codes),
            text,
            [_Code(c) for c in codes],
            list(np.array(codes, dtype=np.int64)),
            (c for c in codes),
        ]
        answers = {
            (mj.shanten(h), tuple(mj.useful_tiles(h)), tuple(mj.useful_tiles(h, form="regular")))
            for h in spellings[:-1]
        }
        assert len(answers) == 1, (codes, answers)
        assert mj.shanten(spellings[-1]) == answers.pop()[0]


@pytest.mark.parametrize(
    "hand",
    [
        [0] * 5 + list(range(9, 17)),  # a fifth copy
        [True] * 13,  # bools are not tile codes
        list(range(12)) + [34],  # a flower code in a concealed hand
        [1.0] * 13,
        list(range(12)) + [2**70],
    ],
)
def test_unusual_items_reach_the_full_reader(hand):
    with pytest.raises(mj.InvalidHandError):
        mj.useful_tiles(hand)


def test_wild_outside_huainan_is_a_rule_error():
    with pytest.raises(mj.RuleError):
        mj.shanten("123m456p789s1112z", wild="1m")


def test_batch_matches_single_calls():
    hands = ["123m456p789s1112z", "19m19p19s1234567z", "1111m123456789p", "123m456p789s11122z"]
    counts = np.zeros((len(hands), 34), dtype=np.uint8)
    for i, h in enumerate(hands):
        for t in P(h):
            counts[i, t] += 1
    out = mj.shanten_batch(counts)
    assert out.dtype == np.int8 and out.shape == (len(hands),)
    assert list(out) == [mj.shanten(h) for h in hands]
    short = np.zeros((2, 34), dtype=np.uint8)
    short[0, 0] = 1  # one tile: four melds assumed
    short[1, 0] = 2
    assert list(mj.shanten_batch(short)) == [0, -1]
    # Non-contiguous views work too.
    assert list(mj.shanten_batch(np.asfortranarray(counts))) == list(out)
    with pytest.raises(mj.InvalidHandError, match="row 0"):
        mj.shanten_batch(np.zeros((1, 34), dtype=np.uint8))
    with pytest.raises(mj.InvalidHandError):
        mj.shanten_batch(np.zeros((1, 33), dtype=np.uint8))
    with pytest.raises(mj.InvalidHandError):
        mj.shanten_batch(np.zeros((1, 34), dtype=np.int64))
    with pytest.raises(mj.InvalidHandError, match="copies"):
        bad = counts[:1].copy()
        bad[0, 0] = 5
        mj.shanten_batch(bad)


def test_large_batch_is_split_over_cores_and_reports_the_first_bad_row():
    rng = np.random.default_rng(3)
    counts = np.zeros((20_000, 34), dtype=np.uint8)
    for row in counts:
        for t in rng.choice(136, 13, replace=False) // 4:
            row[t] += 1
    out = mj.shanten_batch(counts)
    sample = range(0, 20_000, 997)
    singles = [mj.shanten([t for t in range(34) for _ in range(counts[i, t])]) for i in sample]
    assert [out[i] for i in sample] == singles
    # Every other row, as a strided view, scores the same as those rows copied.
    assert list(mj.shanten_batch(counts[::2])) == list(out[::2])
    bad = counts.copy()
    bad[17_000, :] = 0
    bad[9_001, :] = 0
    bad[9_001, 5] = 5
    with pytest.raises(mj.InvalidHandError, match=r"row 9001: 5 copies of 6m"):
        mj.shanten_batch(bad)
