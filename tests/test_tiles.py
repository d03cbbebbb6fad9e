"""Tiles, notation, melds and rule sets."""

import pickle

import pytest

import majiang as mj


def test_parse_and_format_round_trip():
    tiles = mj.parse_tiles("123m456p789s1155z")
    assert tiles == [0, 1, 2, 12, 13, 14, 24, 25, 26, 27, 27, 31, 31]
    assert mj.parse_tiles(mj.format_tiles([33, 0, 9, 34, 27])) == sorted([33, 0, 9, 34, 27])
    assert mj.format_tiles("5z1m") == "1m5z"
    assert mj.parse_tiles("1f8f") == [34, 41]


@pytest.mark.parametrize(
    ("text", "needle"),
    [("0m", "'0m'"), ("8z", "'8z'"), ("9f", "'9f'"), ("12", "no suit letter"), ("1x", "'x'")],
)
def test_bad_notation_names_the_problem(text, needle):
    with pytest.raises(mj.InvalidHandError, match=needle):
        mj.parse_tiles(text)
    assert issubclass(mj.InvalidHandError, ValueError)


def test_names_and_glyphs():
    assert mj.tile_name(31) == "5z"
    assert mj.tile_name_zh("5z") == "中"
    assert mj.tile_name_zh(0) == "一万"
    assert mj.tile_name_zh(35) == "兰"
    assert mj.tile_glyph("1z") == "\U0001f000"
    assert mj.tile_glyph(9) == "\U0001f019"
    with pytest.raises(mj.InvalidHandError, match="42"):
        mj.tile_name(42)
    with pytest.raises(mj.InvalidHandError, match="single tile"):
        mj.tile_name("12m")


def test_meld_validation():
    m = mj.Meld("chow", "534m")
    assert m.kind == "chow" and m.tiles == [2, 3, 4] and str(m) == "345m"
    assert mj.Meld("concealed_kong", [5, 5, 5, 5]).concealed
    assert pickle.loads(pickle.dumps(m)) == m
    with pytest.raises(mj.InvalidHandError, match="honors"):
        mj.Meld("chow", "123z")
    with pytest.raises(mj.InvalidHandError, match="consecutive"):
        mj.Meld("chow", "891m")
    with pytest.raises(mj.InvalidHandError, match="identical"):
        mj.Meld("pung", "112m")
    with pytest.raises(mj.InvalidHandError, match="4 tiles"):
        mj.Meld("kong", "111m")
    with pytest.raises(mj.InvalidHandError, match="meld kind"):
        mj.Meld("chi", "123m")


def test_rule_sets():
    gb = mj.RuleSet("gb")
    assert gb.name == "gb" and repr(gb) == 'RuleSet("gb")'
    assert gb.options()["min_fan"] == 8
    six = gb.replace(min_fan=6)
    assert six.options()["min_fan"] == 6 and "min_fan=6" in repr(six)
    with pytest.raises(mj.RuleError, match="no_such"):
        mj.RuleSet("gb", no_such=True)
    with pytest.raises(mj.RuleError, match="riichi"):
        mj.RuleSet("riichi")
    with pytest.raises(mj.RuleError, match="true or false"):
        mj.RuleSet("gb", flowers_count_toward_min=3)
