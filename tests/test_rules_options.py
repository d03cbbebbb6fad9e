"""Rule-set options: scoping, domains, pickling and copying of ``RuleSet``."""

import copy
import math
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import majiang as mj
from majiang.record import MatchRecord

PRESETS = ("gb", "classic", "huainan")
TABLES = {name: mj.RuleSet.option_table(name) for name in PRESETS}
ALL_NAMES = sorted({k for t in TABLES.values() for k in t})


def other_value(row):
    """A value of the option's domain different from its default."""
    if row["type"] == "bool":
        return not row["default"]
    if row["type"] == "int":
        return row["max"] if row["default"] != row["max"] else row["min"]
    return next((c for c in row["choices"] if c != row["default"]), row["default"])


@pytest.mark.parametrize("name", PRESETS)
def test_options_are_the_rule_sets_own_table(name):
    rules = mj.RuleSet(name)
    table = TABLES[name]
    assert list(rules.options()) == list(table)
    assert rules.options() == {k: row["default"] for k, row in table.items()}
    for k, row in table.items():
        assert name in row["rule_sets"], k
        assert row["doc"], k


def test_each_rule_set_keeps_to_its_own_options():
    gb, classic, huainan = (set(TABLES[n]) for n in PRESETS)
    assert "cap" in huainan and "cap" not in gb | classic
    assert "min_fan" in gb & classic and "min_fan" not in huainan
    assert "reserved_tiles" in gb & classic & huainan
    assert {"settlement", "ting_enabled", "penalty_mode"} <= gb - huainan
    assert not any(k.startswith(("bao_", "form_", "mult_")) for k in gb | classic)


@pytest.mark.parametrize("name", PRESETS)
def test_every_option_round_trips(name):
    for key, row in TABLES[name].items():
        value = other_value(row)
        rules = mj.RuleSet(name, **{key: value})
        assert rules.options()[key] == value and type(rules.options()[key]) is type(value)
        again = mj.RuleSet(rules.name, **rules.options())
        assert again == rules and hash(again) == hash(rules)
        assert eval(repr(rules), {"RuleSet": mj.RuleSet}) == rules
        assert mj.RuleSet(name).replace(**{key: value}) == rules


@pytest.mark.parametrize(
    "name, key, owners",
    [
        ("gb", "cap", "huainan"),
        ("classic", "bao_in_melds", "huainan"),
        ("huainan", "min_fan", "gb and classic"),
        ("huainan", "ting_enabled", "gb and classic"),
    ],
)
def test_a_foreign_option_names_its_owners(name, key, owners):
    message = f"option '{key}' belongs to {owners}, not {name}"
    value = TABLES["huainan" if name != "huainan" else "gb"][key]["default"]
    with pytest.raises(mj.RuleError) as e:
        mj.RuleSet(name, **{key: value})
    assert str(e.value) == message
    with pytest.raises(mj.RuleError, match=message):
        mj.RuleSet(name).replace(**{key: value})


def test_an_unknown_option_suggests_close_names():
    with pytest.raises(mj.RuleError, match=r"unknown option 'min_fann' .*'min_fan'"):
        mj.RuleSet("gb", min_fann=6)
    with pytest.raises(mj.RuleError, match="unknown option 'no_such' for rule set huainan"):
        mj.RuleSet("huainan", no_such=True)


@pytest.mark.parametrize(
    "name, key, value, phrase",
    [
        ("huainan", "cap", 2**32 - 1, "an integer from 1 to 100000"),
        ("huainan", "cap", 2**70, "an integer from 1 to 100000"),
        ("huainan", "cap", 0, "an integer from 1 to 100000"),
        ("huainan", "base_points", -1, "an integer from 1 to 1000"),
        ("huainan", "cap", 32.0, "an integer"),
        ("huainan", "cap", math.nan, "an integer"),
        ("huainan", "cap", "32", "an integer"),
        ("huainan", "cap", True, "an integer"),
        ("huainan", "cap", None, "an integer"),
        ("gb", "max_flowers", 255, "an integer from 0 to 8"),
        ("gb", "min_fan", 0, "an integer from 1 to 88"),
        ("classic", "hands_per_match", 0, "an integer from 1 to 1024"),
        ("gb", "reserved_tiles", 91, "an integer from 0 to 90"),
        ("gb", "flowers_count_toward_min", 1, "true or false"),
        ("huainan", "jiebao", "yes", "true or false"),
        ("huainan", "jiebao", np.bool_(True), "true or false"),
        ("huainan", "scoring_mode", "Additive", 'one of "multiplicative", "additive"'),
        ("gb", "settlement", 1, "one of"),
    ],
)
def test_values_outside_the_domain_raise_naming_the_option(name, key, value, phrase):
    with pytest.raises(mj.RuleError) as e:
        mj.RuleSet(name, **{key: value})
    message = str(e.value)
    assert message.startswith(f"option '{key}' takes {phrase}"), message
    assert "got " in message


def test_integers_are_ints_or_index_types_only():
    assert mj.RuleSet("huainan", cap=np.int64(32)).options()["cap"] == 32
    assert type(mj.RuleSet("huainan", cap=np.int64(32)).options()["cap"]) is int
    assert mj.RuleSet("huainan", cap=np.int64(32)) == mj.RuleSet("huainan", cap=32)


def test_the_name_must_be_a_known_str():
    with pytest.raises(TypeError, match="must be a str"):
        mj.RuleSet(3)
    with pytest.raises(mj.RuleError, match="riichi"):
        mj.RuleSet("riichi")
    assert mj.RuleSet() == mj.RuleSet("gb")


@pytest.mark.parametrize("name", PRESETS)
def test_pickle_and_copy(name):
    key, row = next(iter(TABLES[name].items()))
    rules = mj.RuleSet(name, **{key: other_value(row)})
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(rules, protocol=protocol))
        assert back == rules and back.options() == rules.options()
    assert copy.copy(rules) == rules
    assert copy.deepcopy({"r": [rules]})["r"][0] == rules
    assert rules != mj.RuleSet(name)
    assert len({rules, copy.copy(rules), mj.RuleSet(name)}) == 2


def test_match_records_rebuild_their_rule_set():
    for rules in (mj.RuleSet("huainan", cap=32, reserved_tiles=14), mj.RuleSet("classic")):
        record = MatchRecord(rules.name, rules.options(), seed=1, n_hands=1, players=[])
        assert record.rule_set() == rules
        assert "min_fan" not in record.options or rules.name != "huainan"


def test_simulate_accepts_an_unpickled_rule_set():
    rules = mj.RuleSet("huainan", cap=16)
    back = pickle.loads(pickle.dumps(rules))
    a = mj.simulate(4, rules=rules, seed=3)
    b = mj.simulate(4, rules=back, seed=3)
    assert np.array_equal(a.scores, b.scores)


def test_the_largest_values_keep_scores_zero_sum_and_in_range():
    """Every integer option at its maximum: each hand still sums to zero, and no seat moves
    by more than three capped payments plus kong points."""
    table = TABLES["huainan"]
    flow = {"reserved_tiles", "hands_per_match", "wall_stacks_per_side"}
    top = {k: r["max"] for k, r in table.items() if r["type"] == "int" and k not in flow}
    rules = mj.RuleSet("huainan", touji_per_pass=True, kong_points_on_draw=True, **top)
    result = mj.simulate(600, rules=rules, seed=1, bots="efficiency,random,efficiency,random")
    assert (result.scores.sum(axis=1) == 0).all()
    bound = 3 * top["cap"] + 12 * top["kong_points_an"]
    assert 0 < abs(result.scores).max() <= bound
    gb = mj.RuleSet("gb", base=TABLES["gb"]["base"]["max"], min_fan=1)
    result = mj.simulate(300, rules=gb, seed=1)
    assert (result.scores.sum(axis=1) == 0).all()


values = st.one_of(
    st.booleans(),
    st.integers(),
    st.integers(min_value=-5, max_value=200_000),
    st.floats(allow_nan=True),
    st.text(max_size=20),
    st.none(),
    st.lists(st.integers(), max_size=2),
)
names = st.one_of(st.sampled_from(ALL_NAMES), st.text(max_size=12))


@settings(max_examples=300, deadline=None)
@given(
    rule_set=st.one_of(st.sampled_from(PRESETS), st.text(max_size=8)),
    options=st.dictionaries(names, values, max_size=4),
)
def test_random_options_raise_rule_error_or_round_trip(rule_set, options):
    try:
        rules = mj.RuleSet(rule_set, **options)
    except (mj.RuleError, TypeError):
        return
    assert set(options) <= set(rules.options())
    assert mj.RuleSet(rules.name, **rules.options()) == rules
    assert pickle.loads(pickle.dumps(rules)) == rules


# --- the registry -------------------------------------------------------------------


def test_presets_work_wherever_a_rule_set_is_accepted() -> None:
    import majiang.botzone as bz
    from majiang import rules

    assert rules.NAMES == rules.RULE_SETS + rules.PRESETS
    assert "botzone" in rules.PRESETS and set(rules.RULE_SETS) == {"gb", "classic", "huainan"}
    bot = mj.RuleSet("botzone")
    assert bot == bz.rules() and hash(bot) == hash(bz.rules())
    assert (bot.name, bot.preset, bot.unit) == ("gb", "botzone", "fan")
    assert repr(bot) == 'RuleSet("botzone")'
    assert repr(mj.RuleSet("botzone", flowers=True)) == 'RuleSet("botzone", flowers=True)'
    # The preset's options, written out, are the same rule set.
    spelled = mj.RuleSet("gb", **rules.entry("botzone")["options"])
    assert spelled == bot and spelled.preset is None
    assert pickle.loads(pickle.dumps(bot)) == bot
    assert pickle.loads(pickle.dumps(bot)).preset == "botzone"
    # Accepted by the oracle, the fan evaluator, rounds and simulate.
    assert mj.shanten("123m456p789s1112z", rules="botzone") == 0
    assert mj.Round("botzone", seed=3).rules == bot
    assert mj.simulate(4, rules="botzone", bots="random", seed=1).rules == "gb"
    with pytest.raises(mj.RuleError, match="expected gb, classic, huainan, botzone"):
        mj.RuleSet("riichi")


def test_the_registry_describes_every_rule_set() -> None:
    from pathlib import Path

    from majiang import rules

    root = Path(__file__).resolve().parent.parent
    for name in rules.NAMES:
        e = rules.entry(name)
        assert (root / e["docs"]).is_file(), f"{name}: no page {e['docs']}"
        assert e["title"] and e["summary"]
    for name in rules.RULE_SETS:
        e = rules.entry(name)
        rs = mj.RuleSet(name)
        assert (rs.unit, rs.has_wilds, tuple(rs.forms)) == (e["unit"], e["has_wilds"], e["forms"])
        # Every option of the rule set belongs to one of its groups.
        groups = {row["group"] for row in mj.RuleSet.option_table(name).values()}
        assert groups == set(e["groups"])
        assert set(mj.shanten_forms("19m19p19s1234567z", rules=name)) <= set(e["forms"])
    assert rules.entry("mcr")["name"] == "gb"
    assert rules.unit("huainan") == "points" and rules.unit(mj.RuleSet("classic")) == "fan"
