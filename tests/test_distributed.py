"""majiang.distributed: shards on a local Ray instance equal the single-machine run."""

import pytest

import majiang as mj
from majiang.distributed import shard_ranges


def test_shard_ranges_cover_the_hands_in_order():
    assert shard_ranges(10, 3) == [(0, 4), (4, 4), (8, 2)]
    assert shard_ranges(2, 8) == [(0, 1), (1, 1)]
    assert shard_ranges(0, 4) == []
    with pytest.raises(ValueError, match="shards"):
        shard_ranges(10, 0)


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
    finally:
        ray.shutdown()
