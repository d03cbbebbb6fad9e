"""majiang.distributed: shards on a local Ray instance equal the single-machine run."""

import pickle

import pytest

import majiang as mj
from majiang.distributed import _play_shard, shard_ranges
from majiang.sim import SimResult


def test_shard_ranges_cover_the_hands_in_order():
    assert shard_ranges(10, 3) == [(0, 4), (4, 4), (8, 2)]
    assert shard_ranges(2, 8) == [(0, 1), (1, 1)]
    assert shard_ranges(0, 4) == []
    with pytest.raises(ValueError, match="shards"):
        shard_ranges(10, 0)


def test_shards_with_a_shipped_rule_set_equal_the_single_machine_run():
    """What a Ray task receives: the pickled arguments of each shard, a RuleSet among them."""
    rules = mj.RuleSet("huainan", cap=32, reserved_tiles=14)
    bots = ["efficiency", "random", "efficiency", "random"]
    parts = []
    for start, count in shard_ranges(40, 3):
        args = pickle.loads(pickle.dumps((start, count, rules, bots, 5, 1)))
        assert args[2] == rules
        parts.append(_play_shard(*args))
    sharded = SimResult._from_arrays(parts, rules="huainan", bots=bots, seed=5)
    assert sharded.equals(mj.simulate(40, rules=rules, bots=bots, seed=5))
    assert not sharded.equals(mj.simulate(40, rules="huainan", bots=bots, seed=5))


def test_ray_run_equals_the_single_machine_run():
    ray = pytest.importorskip(
        "ray", reason="Ray is not installed (pip install 'majiang[ray]' to run this test)"
    )
    from majiang import distributed

    ray.init(num_cpus=2, include_dashboard=False, ignore_reinit_error=True, log_to_driver=False)
    try:
        local = mj.simulate(1_000, bots="efficiency,random,efficiency,random", seed=99)
        remote = distributed.simulate(
            1_000, bots="efficiency,random,efficiency,random", seed=99, shards=3
        )
        assert remote.equals(local)
        assert remote.summary() == local.summary()
        rules = mj.RuleSet("huainan", cap=32)
        shipped = distributed.simulate(200, rules=rules, seed=7, shards=2)
        assert shipped.equals(mj.simulate(200, rules=rules, seed=7))
        assert shipped.rule_set() == rules
    finally:
        ray.shutdown()
