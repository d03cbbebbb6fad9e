"""The arguments of the long calls: documented ranges checked at the boundary, errors that
name the argument, no silent coercion of floats, strings or bools; results pickle and
copy."""

from __future__ import annotations

import copy
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import majiang as mj
from majiang import _core


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        ({"seed": 1.7}, TypeError, "seed must be an int, got float"),
        ({"seed": "12"}, TypeError, "seed must be an int, got str"),
        ({"seed": True}, TypeError, "seed must be an int"),
        ({"seed": -1}, ValueError, "seed"),
        ({"seed": 2**64}, ValueError, "seed"),
        ({"threads": 0}, ValueError, "threads"),
        ({"threads": mj.MAX_THREADS + 1}, ValueError, "threads must be between 1 and 256"),
        ({"threads": 10_000}, ValueError, "threads"),
        ({"threads": 2.0}, TypeError, "threads"),
        ({"threads": True}, TypeError, "threads"),
        ({"shard_hands": 0}, ValueError, "shard_hands"),
    ],
)
def test_simulate_rejects(kwargs, error, words):
    with pytest.raises(error, match=words):
        mj.simulate(10, **kwargs)


@pytest.mark.parametrize(
    "n, error", [(10.0, TypeError), ("10", TypeError), (True, TypeError), (-1, ValueError)]
)
def test_counts_are_ints(n, error):
    with pytest.raises(error, match="n_hands"):
        mj.simulate(n)
    with pytest.raises(error, match="hands"):
        mj.arena("random", hands=n)
    with pytest.raises(error, match="n_hands"):
        _core.simulate_hands(n, rules="gb", bots="random")


def test_integer_like_values_are_fine():
    a = mj.simulate(np.int64(20), seed=np.uint64(3), threads=np.int32(1), bots="random")
    assert a.equals(mj.simulate(20, seed=3, bots="random"))


def test_the_in_memory_limit_points_to_out():
    with pytest.raises(ValueError, match="out=PATH"):
        mj.simulate(10**9)
    with pytest.raises(ValueError, match="MAX_IN_MEMORY_HANDS"):
        mj.arena("random", hands=mj.MAX_IN_MEMORY_HANDS + 4)
    with pytest.raises(ValueError, match="n_hands"):
        _core.simulate_hands(mj.MAX_IN_MEMORY_HANDS + 1, rules="gb", bots="random")


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        ({"seed": 1.7}, TypeError, "seed"),
        ({"seed": "12"}, TypeError, "seed"),
        ({"seed": 2**64}, ValueError, "seed"),
        ({"start": -1}, ValueError, "start"),
        ({"start": 2**64 - 5}, ValueError, "start"),
        ({"threads": 0}, ValueError, "threads"),
        ({"threads": 10_000}, ValueError, "threads"),
        ({"threads": True}, TypeError, "threads"),
        ({"sink_hands": 0}, ValueError, "sink_hands"),
    ],
)
def test_the_bindings_check_their_arguments(kwargs, error, words):
    with pytest.raises(error, match=words):
        _core.simulate_hands(10, rules="gb", bots="random", **kwargs)
    if "sink_hands" not in kwargs:
        with pytest.raises(error, match=words):
            _core.arena_games(10, rules="gb", bots="random", **kwargs)


def test_huge_counts_name_the_argument():
    with pytest.raises(ValueError, match="n_hands"):
        _core.simulate_hands(2**70, rules="gb", bots="random")
    with pytest.raises(ValueError, match="n_games"):
        _core.arena_games(2**70, rules="gb", bots="random")


def test_arena_rejects():
    with pytest.raises(TypeError, match="seed"):
        mj.arena("random", hands=8, seed=2.5)
    with pytest.raises(ValueError, match="threads"):
        mj.arena("random", hands=8, threads=10_000)
    with pytest.raises(TypeError, match="duplicate"):
        mj.arena("random", hands=8, duplicate=1)


def test_evaluate_fan_batch_bounds_its_threads():
    hands = np.zeros((1, 34), np.uint8)
    with pytest.raises(ValueError, match="threads"):
        mj.evaluate_fan_batch(hands, [0], threads=10_000)
    with pytest.raises(ValueError, match="threads"):
        _core._evaluate_fan_batch(
            hands,
            *(np.zeros(1, np.uint8),),
            np.zeros((1, 4, 2), np.uint8),
            *(np.zeros(1, np.uint8) for _ in range(4)),
            "gb",
            10_000,
        )


def test_results_pickle_and_copy(tmp_path):
    r = mj.simulate(50, rules=mj.RuleSet("classic", min_fan=6), bots="random", seed=1)
    for back in (pickle.loads(pickle.dumps(r)), copy.copy(r), copy.deepcopy(r)):
        assert back.equals(r) and back.rule_set() == r.rule_set() and back.bots == r.bots
    streamed = mj.simulate(50, bots="random", seed=1, out=tmp_path / "run")
    back = pickle.loads(pickle.dumps(streamed))
    assert back.equals(streamed) and len(back) == 50
    a = mj.arena("efficiency,random,random,random", hands=8, seed=2)
    for back in (pickle.loads(pickle.dumps(a)), copy.deepcopy(a)):
        assert back.summary() == a.summary() and back.rule_set() == mj.RuleSet("gb")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_a_run_too_big_for_the_memory_limit_raises_memory_error():
    # Under an address-space limit the arrays are reserved at the start: MemoryError, and
    # the interpreter goes on (it used to abort).
    code = """
        import resource
        import majiang as mj
        mj.simulate(10, bots="random")
        status = open("/proc/self/status").read()
        vm = int(status.split("VmSize:")[1].split()[0]) * 1024
        resource.setrlimit(resource.RLIMIT_AS, (vm + 400 * 2**20, resource.RLIM_INFINITY))
        try:
            mj.simulate(19_000_000, bots="random")
        except MemoryError as e:
            print("MemoryError", "out=PATH" in str(e))
        print(len(mj.simulate(100, bots="random")))
    """
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["MemoryError", "True", "100"]


def test_fan_results_pickle_copy_and_compare():
    corpus = [
        mj.evaluate_fan("1122334455667m", "7m", flowers=3),
        mj.evaluate_fan("123m456p789s1112z", "2z", self_drawn=True, seat_wind=1),
        mj.evaluate_fan("19m19p19s1234567z", "7z"),
    ]
    for r in corpus:
        for back in (pickle.loads(pickle.dumps(r)), copy.copy(r), copy.deepcopy(r)):
            assert back == r
            assert back.to_dict() == r.to_dict()
    assert corpus[0] != corpus[1]
    # A forged state is refused like any other bad argument.
    with pytest.raises(ValueError, match="increasing order"):
        mj._core._fan_result([(12, 1), (10, 1)], True)
    with pytest.raises(ValueError, match="counts 0 times"):
        mj._core._fan_result([(10, 0)], True)


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"seed": 1.7}, "seed must be an int, got float"),
        ({"seed": "12"}, "seed must be an int, got str"),
        ({"seed": True}, "seed must be an int, got bool"),
        ({"hands": 1.5}, "hands must be an int, got float"),
        ({"hands": "3"}, "hands must be an int, got str"),
        ({"decision_timeout": "1"}, "decision_timeout must be a number"),
    ],
)
def test_game_arguments_are_not_coerced(kwargs, words):
    with pytest.raises(TypeError, match=words):
        mj.Game("gb", **kwargs)


def test_game_takes_integer_types():
    import numpy as np

    game = mj.Game("gb", seed=np.uint64(7), hands=np.int32(1))
    assert game.seed == 7 and type(game.seed) is int
    assert len(game.play().hands) == 1
