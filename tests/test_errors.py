"""Errors by kind: each bad input raises the exception of its kind, naming the argument.

- malformed tiles, melds or hand flags: ``InvalidHandError``;
- an unknown rule set, option or option value: ``RuleError``;
- an action that is not legal now: ``IllegalActionError``;
- any other argument out of range (seat, seed, threads, budget, counts, bot names):
  ``InvalidArgumentError`` (a ``ValueError``); an argument of the wrong type:
  ``InvalidTypeError`` (a ``TypeError``).

Every one of them is a ``MajiangError``.
"""

from __future__ import annotations

import numpy as np
import pytest

import majiang as mj
from majiang import _core
from majiang.bots import EfficiencyBot, FirstBot, RandomBot, StrongBot

WIN = "234m567m345p78s11z"


def _fan_result() -> mj.FanResult:
    return mj.evaluate_fan(WIN, "6s", rules=mj.RuleSet("classic", min_fan=1))


def _waiting_seat_observation() -> mj.Observation:
    """An observation of a seat with nothing to decide."""
    r = mj.Round("gb", seed=1)
    idle = next(s for s in range(4) if s not in r.pending)
    return r.observation(idle)


@pytest.mark.parametrize(
    "call",
    [
        lambda: mj.shanten("123x"),
        lambda: mj.shanten([0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8]),
        lambda: mj.shanten("123m", melds="123m"),
        lambda: mj.waits(object()),
        lambda: mj.Round("gb", hands=["123m", "", "", ""]),
        lambda: mj.Action("discard", "8z"),
        lambda: mj.shanten_batch("x"),
    ],
    ids=["text", "fifth-copy", "melds", "object", "round-hands", "action-tile", "batch"],
)
def test_bad_tiles_raise_invalid_hand_error(call) -> None:
    with pytest.raises(mj.InvalidHandError):
        call()


@pytest.mark.parametrize(
    "call",
    [
        lambda: mj.RuleSet("riichi"),
        lambda: mj.RuleSet("gb", no_such_option=1),
        lambda: mj.Round("riichi"),
        lambda: mj.Match("riichi"),
        lambda: mj.shanten("123m456p789s1112z", wild="1m"),
        lambda: _core.Policy("efficiency", rules="riichi"),
        lambda: _core.StrongPolicy(rules="riichi"),
        lambda: mj.evaluate_fan("234m567m345p78s11z", "6s", rules="huainan"),
    ],
    ids=["ruleset", "option", "round", "match", "wild", "policy", "strong", "fan-huainan"],
)
def test_bad_rules_raise_rule_error(call) -> None:
    with pytest.raises(mj.RuleError):
        call()


def test_illegal_actions_raise_illegal_action_error() -> None:
    r = mj.Round("gb", seed=1)
    seat = r.pending[0]
    with pytest.raises(mj.IllegalActionError, match="not legal"):
        r.apply(seat, mj.Action("win"))
    with pytest.raises(mj.IllegalActionError, match="unknown action kind"):
        mj.Action("riichi")
    with pytest.raises(mj.IllegalActionError, match="not an action code"):
        mj.Action.from_code(10_000)
    m = mj.Match("gb", seed=1)
    with pytest.raises(mj.IllegalActionError, match="not over"):
        m.finish_hand(m.start_hand())
    idle = _waiting_seat_observation()
    for bot in (
        EfficiencyBot(),
        StrongBot(time_cap=False),
        RandomBot(seed=1),
        FirstBot(),
    ):
        with pytest.raises(mj.IllegalActionError, match="no legal action"):
            bot.act(idle)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: mj.Round("gb").observation(4), "seat must be a seat, 0-3, got 4"),
        (lambda: mj.Round("gb").legal_actions(-1), "seat must be"),
        (lambda: mj.Round("gb", seed=1).apply(7, mj.Action("pass")), "seat must be"),
        (lambda: mj.Round("gb").hand(4), "seat must be"),
        (lambda: mj.Round("gb").events(seat=5), "seat must be"),
        (lambda: mj.Round("gb", dealer=4), "dealer must be a seat"),
        (lambda: mj.Round("gb", prevalent_wind=4), "prevalent_wind"),
        (lambda: mj.Round("gb", seed=-1), "seed must be"),
        (lambda: mj.Round("gb").events(since=-1), "since must be"),
        (lambda: mj.Match("gb", seed=2**64), "seed must be"),
        (lambda: mj.Match("gb", hands=0), "hands must be"),
        (lambda: mj.wind_name(4), "wind must be"),
        (lambda: _core.Policy("genius"), "unknown bot"),
        (lambda: _core.Policy("efficiency", seed=-1), "seed must be"),
        (lambda: _core.Policy("efficiency").reseed(2**64), "seed must be"),
        (lambda: _core.StrongPolicy(budget_ms=-1), "budget_ms"),
        (lambda: _core.StrongPolicy(rollouts=-1), "rollouts"),
        (lambda: _core.StrongPolicy(seed=-5), "seed must be"),
        (lambda: _core.simulate_hands(1, rules="gb", bots="efficiency", threads=0), "threads"),
        (lambda: _core.simulate_hands(-1, rules="gb", bots="efficiency"), "n_hands"),
        (lambda: _core.simulate_hands(1, rules="gb", bots=["random"] * 3), "bots"),
        (lambda: _core.simulate_hands(1, rules="gb", bots="genius"), "unknown bot"),
        (lambda: _fan_result().count("no such fan"), "no fan named"),
        (lambda: _fan_result().count(99), "fan id must be 1-83"),
    ],
)
def test_other_bad_arguments_raise_invalid_argument_error(call, match: str) -> None:
    with pytest.raises(mj.InvalidArgumentError, match=match) as e:
        call()
    assert type(e.value) is mj.InvalidArgumentError, type(e.value)
    assert isinstance(e.value, ValueError) and isinstance(e.value, mj.MajiangError)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: _core.Policy("efficiency").choose(object()), "majiang.Observation"),
        (lambda: _core.Policy("random").choose({"legal_actions": []}), "majiang.Observation"),
        (lambda: _core.StrongPolicy().choose(object()), "majiang.Observation"),
        (lambda: EfficiencyBot().act("observation"), "majiang.Observation"),
        (lambda: mj.Round("gb", seed=1).apply(0, "discard 5p"), "majiang.Action"),
        (lambda: mj.shanten("123m456p789s1112z", rules=5), "rules"),
        (lambda: mj.Round(5), "rules"),
        (lambda: mj.evaluate_fan(WIN, "6s", rules=1.5), "rules"),
        (lambda: _fan_result().count(1.5), "fan must be a name or an id"),
        (lambda: _core.simulate_hands(1, rules="gb", bots=3), "bots"),
        (lambda: mj.Round("gb", seed="x"), "seed"),
        # Plain arguments the extension reads: bools, floats and complex numbers are
        # refused where an int belongs, never rounded (PyO3 notes the argument's name).
        (lambda: mj.Round("gb", seed=True), "seed"),
        (lambda: mj.Round("gb", seed=1.0), "seed"),
        (lambda: mj.Round("gb", dealer=1.5), "dealer"),
        (lambda: mj.Round("gb", seed=1).observation(True), "seat"),
        (lambda: mj.Round("gb", seed=1).events(since=0.5), "since"),
        (lambda: mj.Round("gb", scores=[0, 0, 0, 0.5]), "scores"),
        (lambda: mj.Round("gb", scores="0000"), "scores"),
        (lambda: mj.Round.from_view("gb", [("seat", 0)]), "view must be a dict"),
        (lambda: mj.Match("gb", hands=2.0), "hands"),
        (lambda: mj.Match("gb", seed=1j), "seed"),
        (lambda: mj.Match("gb", seed=1).hand_seed_at(True), "index"),
        (lambda: mj.Match("gb", seed=1).finish_hand("round"), "round must be"),
        (lambda: mj.Action(3), "kind"),
        (lambda: mj.Action.from_code(3.0), "code"),
        (lambda: mj.Meld(b"chow", "123m"), "kind"),
        (lambda: mj.parse_tiles(123), "a str is needed"),
        (lambda: mj.wind_name(True), "w"),
        (lambda: mj.evaluate_fan(WIN, "6s", self_drawn=1), "self_drawn"),
        (lambda: mj.useful_tiles("123m456p789s1112z", form=1), "form"),
        (lambda: mj.RuleSet.option_table(1), "name"),
        (lambda: mj.score_huainan("123m", "4m", wild="1z", passes=1.0), "passes"),
        (lambda: mj.bao_indicator_index(7.0), "s2"),
        (lambda: _core.Policy(3), "name"),
        (lambda: _core.Policy("random", seed=2.0**10), "seed"),
        (lambda: _core.Policy("random").reseed(False), "seed"),
        (lambda: _core.StrongPolicy(budget_ms=5.5), "budget_ms"),
        (lambda: _core.StrongPolicy(time_cap=1), "time_cap"),
        (lambda: _core.simulate_hands(1, rules="gb", bots="random", check=1), "check"),
        (lambda: _core.simulate_hands(1, rules="gb", bots="random", sink_hands=1.0), "sink"),
        (lambda: _core.arena_games(4, rules="gb", bots="random", duplicate="yes"), "duplicate"),
        (lambda: mj.env.VecEnv("gb", True), "num_envs"),
        (lambda: mj.env.VecEnv("gb", 2.0), "num_envs"),
        (lambda: mj.env.VecEnv("gb", 2, hands=1.5), "hands"),
        (lambda: mj.env.VecEnv("gb", 2, threads=1.0), "threads"),
        (lambda: mj.env.VecEnv("gb", 2, autoreset=1), "autoreset"),
        (lambda: mj.env.VecEnv("gb", 2, episode=1), "episode"),
        (lambda: mj.env.VecEnv("gb", 2, seat=True), "seat"),
        (lambda: mj.env.VecEnv("gb", 2, seed=1).step([3.9, 0]), "actions"),
        (lambda: mj.env.VecEnv("gb", 2, seed=1).step(np.array([3.9, 0.0])), "actions"),
        (lambda: mj.env.VecEnv("gb", 2, seed=1).step(np.array([True, False])), "actions"),
        (lambda: mj.env.VecEnv("gb", 2, seed=1).next_episode(0.0), "index"),
        (lambda: mj.env.VecEnv("gb", 2, seed=1).reset(seed=1.5), "seed"),
        (lambda: mj.env.index_to_action(1.0), "index"),
        (lambda: mj.env.action_to_index("pass"), "majiang.Action"),
        (lambda: mj.env.encode("observation"), "majiang.Observation"),
        (lambda: mj.env.encode(_obs(), out=np.zeros((mj.env.N_PLANES, 34))), "uint8"),
        (lambda: mj.env.legal_mask(_obs(), out=[0] * mj.env.N_ACTIONS), "numpy array"),
    ],
)
def test_wrong_types_raise_type_error(call, match: str) -> None:
    with pytest.raises(mj.InvalidTypeError, match=match) as e:
        call()
    assert type(e.value) is mj.InvalidTypeError, type(e.value)
    assert isinstance(e.value, TypeError) and isinstance(e.value, mj.MajiangError)


def _obs() -> mj.Observation:
    return mj.Round("gb", seed=1).observation(0)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: mj.Round("gb", seed=2**200), "out of range"),
        (lambda: mj.Round("gb", dealer=-(2**100)), "dealer must be a seat"),
        (lambda: mj.Round("gb", scores=[0, 0, 0, 2**40]), "scores\\[3\\]"),
        (lambda: mj.Round("gb", seed=1).observation(2**64), "seat must be"),
        (lambda: mj.Match("gb", hands=2**80), "hands must be 1-65535"),
        (lambda: mj.Match("gb", seed=1).hand_seed_at(2**70), "not a hand"),
        (lambda: mj.Action.from_code(-(2**90)), "not an action code"),
        (lambda: mj.wind_name(2**65), "wind must be"),
        (lambda: mj.bao_indicator_index(2**65), "two-dice throw"),
        (lambda: _core.StrongPolicy(budget_ms=2**63), "budget_ms"),
        (lambda: _core.simulate_hands(1, rules="gb", bots="random", sink_hands=2**64), "range"),
        (lambda: mj.env.VecEnv("gb", 2**64), "out of range|num_envs"),
        (lambda: mj.env.VecEnv("gb", 2, hands=2**70), "hands must be 1-65535"),
        (lambda: mj.env.VecEnv("gb", 2, seed=1).round(2**70), "index must be a table"),
        (lambda: mj.env.index_to_action(2**100), "outside the action space"),
    ],
)
def test_out_of_range_integers_never_raise_overflow_error(call, match: str) -> None:
    """Integers of any size are read without ``OverflowError``: out of range is an
    ``InvalidArgumentError`` (also a ``ValueError``) saying so."""
    with pytest.raises(mj.MajiangError, match=match) as e:
        call()
    assert not isinstance(e.value, OverflowError)
    assert isinstance(e.value, ValueError), type(e.value)


def test_a_policy_never_plays_an_action_it_did_not_choose() -> None:
    """``choose`` returns the policy's own choice among the legal actions (the shared
    Action object), never a stand-in such as the first legal action."""
    r = mj.Round("gb", seed=3)
    p = _core.Policy("efficiency", seed=0)
    chosen = set()
    while r.pending:
        for s in r.pending:
            obs = r.observation(s)
            a = p.choose(obs)
            assert any(a is x for x in obs.legal_actions)
            if len(obs.legal_actions) > 1:
                chosen.add(obs.legal_actions.index(a))
            r.apply(s, a)
    assert len(chosen) > 1


# --- the family ---------------------------------------------------------------------

_SECOND_BASE = {
    "InvalidHandError": ValueError,
    "NotWinningError": ValueError,
    "IllegalActionError": ValueError,
    "RuleError": ValueError,
    "InvalidArgumentError": ValueError,
    "InvalidTypeError": TypeError,
    "UsageError": RuntimeError,
    "MissingExtraError": ImportError,
    "OutOfMemoryError": MemoryError,
    "RecordError": ValueError,
    "ReplayMismatchError": ValueError,
    "LogError": ValueError,
    "DataError": ValueError,
    "ProtocolError": ValueError,
    "ResultFileError": ValueError,
    "BotError": RuntimeError,
    "IllegalBotActionError": ValueError,
    "BotTimeoutError": RuntimeError,
    "ShardError": RuntimeError,
}


def test_every_exception_class_is_a_majiang_error_with_its_builtin_base() -> None:
    from majiang import errors

    classes = {n: getattr(errors, n) for n in errors.__all__ if n != "MajiangError"}
    assert set(classes) - {"ArenaBotError"} == set(_SECOND_BASE)
    for name, cls in classes.items():
        assert issubclass(cls, mj.MajiangError), name
        if name in _SECOND_BASE:
            assert issubclass(cls, _SECOND_BASE[name]), name
            assert getattr(mj, name) is cls and cls.__module__ == "majiang"
    # One class for a failing bot, wherever it played.
    assert mj.ArenaBotError is mj.BotError
    assert issubclass(mj.IllegalBotActionError, mj.IllegalActionError)
    # The extension raises the very same classes.
    for name in ("InvalidHandError", "RuleError", "IllegalActionError", "NotWinningError"):
        assert getattr(_core, name) is getattr(mj, name)


def test_errors_pickle_with_their_fields() -> None:
    import pickle

    from majiang import errors

    e = errors.LogError("no such seat", source="x.json", entry=3)
    back = pickle.loads(pickle.dumps(e))
    assert (type(back), str(back), back.entry, back.source) == (
        errors.LogError,
        str(e),
        3,
        "x.json",
    )
    b = errors.BotError("bot 1 raised", bot=1, name="liar", game=7, seat=2)
    back = pickle.loads(pickle.dumps(b))
    assert (back.bot, back.name, back.game, back.seat, back.hand) == (1, "liar", 7, 2, None)
    d = errors.DataError(
        "Peng W1 is not legal", source="d.txt", entry="match 7", line=9, kind="illegal"
    )
    back = pickle.loads(pickle.dumps(d))
    assert (type(back), str(back), back.entry, back.line, back.kind) == (
        errors.DataError,
        "d.txt: line 9: match 7: Peng W1 is not legal",
        "match 7",
        9,
        "illegal",
    )
    assert isinstance(back, errors.RecordError) and isinstance(back, ValueError)
    r = errors.RecordError("bad line", source="m.jsonl", line=4)
    assert str(pickle.loads(pickle.dumps(r))) == "m.jsonl: line 4: bad line"


def test_all_lists_exactly_the_public_names() -> None:
    import types

    public = {n for n in dir(mj) if not n.startswith("_")}
    assert set(mj.__all__) <= public
    assert len(mj.__all__) == len(set(mj.__all__))
    # Everything public that is not a submodule is listed; the listed submodules are the
    # ones a user is meant to reach through the package.
    unlisted = {
        n for n in public - set(mj.__all__) if not isinstance(getattr(mj, n), types.ModuleType)
    }
    assert not unlisted, sorted(unlisted)
    namespace: dict[str, object] = {}
    exec("from majiang import *", namespace)
    assert set(namespace) - {"__builtins__"} == set(mj.__all__)
