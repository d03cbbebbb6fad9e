"""Fuzzing the parsers and every oracle call with random bad input: nothing crashes, and
every error is an ``InvalidHandError`` (a ``ValueError``) with a message."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import majiang as mj

CALLS = [mj.shanten, mj.shanten_forms, mj.useful_tiles, mj.waits, mj.is_win]

junk = st.one_of(
    st.text(max_size=30),
    st.text(alphabet="0123456789mpszf ", max_size=40),
    st.lists(st.integers(-5, 50), max_size=20),
    st.lists(
        st.one_of(st.integers(0, 33), st.text(max_size=3), st.none(), st.floats()), max_size=16
    ),
    st.integers(),
    st.none(),
    st.binary(max_size=10),
    st.dictionaries(st.integers(), st.integers(), max_size=3),
)
meld_specs = st.lists(
    st.tuples(
        st.sampled_from(["chow", "pung", "kong", "concealed_kong"]),
        st.lists(st.integers(0, 33), min_size=3, max_size=4),
    ),
    max_size=5,
)


def _melds(specs):
    out = []
    for kind, tiles in specs:
        try:
            out.append(mj.Meld(kind, tiles))
        except mj.InvalidHandError:
            pass
    return out


def _call_ok_or_invalid(fn, *args, **kw):
    try:
        fn(*args, **kw)
    except mj.InvalidHandError as e:
        assert str(e)


@settings(max_examples=300, deadline=None)
@given(junk)
def test_parse_tiles_never_crashes(text):
    if isinstance(text, str):
        try:
            tiles = mj.parse_tiles(text)
        except mj.InvalidHandError as e:
            assert str(e)
        else:
            assert mj.parse_tiles(mj.format_tiles(tiles)) == sorted(tiles)


@settings(max_examples=300, deadline=None)
@given(junk, st.sampled_from(CALLS))
def test_oracle_calls_on_junk_hands(hand, fn):
    _call_ok_or_invalid(fn, hand)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.integers(0, 41), max_size=18), meld_specs, st.sampled_from(CALLS))
def test_oracle_calls_on_random_tiles_and_melds(tiles, specs, fn):
    _call_ok_or_invalid(fn, tiles, _melds(specs))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 33), min_size=1, max_size=14),
    st.one_of(st.integers(-3, 45), st.text(max_size=3), st.none()),
    st.sampled_from(CALLS),
)
def test_wild_argument(tiles, wild, fn):
    _call_ok_or_invalid(fn, tiles, rules="huainan", wild=wild)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 255), min_size=0, max_size=34 * 3), st.integers(1, 40))
def test_batch_on_random_arrays(values, cols):
    arr = np.array(values[: (len(values) // cols) * cols], dtype=np.uint8).reshape(-1, cols)
    try:
        out = mj.shanten_batch(arr)
    except mj.InvalidHandError as e:
        assert str(e)
    else:
        assert out.shape == (arr.shape[0],)


@pytest.mark.parametrize(
    "bad",
    [[[1] * 34], np.zeros(34, dtype=np.uint8), np.zeros((2, 34), dtype=np.float64), "x"],
    ids=["list", "1-d", "float64", "str"],
)
def test_batch_rejects_wrong_types(bad):
    with pytest.raises(mj.InvalidHandError, match="2-D numpy array of uint8"):
        mj.shanten_batch(bad)
