"""``simulate`` beyond one machine: the same hands, sharded over a Ray cluster.

Install the extra with ``pip install "majiang[ray]"``. Hand ``i`` of a simulation depends
only on ``(seed, i)``, so :func:`simulate` cuts ``range(n_hands)`` into ``shards``
contiguous ranges, plays each as a Ray task (each task uses the cores of its node through
the same Rust code as :func:`majiang.simulate`), and concatenates the arrays in order. The
result equals ``majiang.simulate(n_hands, ...)`` with the same arguments, array for array.

Point it at a cluster the Ray way: start a head node (``ray start --head``) and workers
(``ray start --address=HEAD:6379``) with majiang installed on every node, then either call
``ray.init(address="auto")`` yourself before :func:`simulate`, set ``RAY_ADDRESS``, or pass
``address="HEAD:6379"``. Without any of these a local Ray instance is started.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from . import _core
from ._core import RuleSet
from .errors import InvalidArgumentError, MissingExtraError
from .sim import SimResult, _bot_list, _check_count, _check_seed

__all__ = ["shard_ranges", "simulate"]


def shard_ranges(n_hands: int, shards: int) -> list[tuple[int, int]]:
    """``(start, count)`` of each shard: ``shards`` contiguous, nearly equal ranges that
    cover ``range(n_hands)`` in order (empty shards are dropped)."""
    n = _check_count("n_hands", n_hands)
    k = _check_count("shards", shards)
    if k == 0:
        raise InvalidArgumentError("shards must be >= 1")
    size = math.ceil(n / k) if n else 0
    return [(a, min(size, n - a)) for a in range(0, n, size)] if size else []


def _play_shard(
    start: int,
    count: int,
    rules: Any,
    bots: list[str],
    seed: int,
    threads: int | None,
) -> dict[str, Any]:
    return _core.simulate_hands(
        count, rules=rules, bots=bots, seed=seed, start=start, threads=threads
    )


def simulate(
    n_hands: int,
    *,
    rules: str | RuleSet = "gb",
    bots: str | Sequence[str] = "efficiency",
    seed: int = 0,
    shards: int = 8,
    threads_per_shard: int | None = None,
    address: str | None = None,
) -> SimResult:
    """Plays ``n_hands`` hands on a Ray cluster in ``shards`` tasks and returns the same
    :class:`~majiang.SimResult` as :func:`majiang.simulate` with these arguments.

    ``rules``: a preset name or a :class:`~majiang.RuleSet`; a rule set travels to the tasks
    pickled, as its name and its own options. ``threads_per_shard``: worker threads of each
    task (all cores of its node when None; each task also asks Ray for that many CPUs, one
    when None). ``address``: a Ray cluster to connect to when Ray is not initialized yet
    (default: ``RAY_ADDRESS`` or a local instance). Raises ImportError naming the extra
    when Ray is not installed.
    """
    try:
        import ray
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise MissingExtraError('majiang.distributed needs Ray: pip install "majiang[ray]"') from e
    n = _check_count("n_hands", n_hands)
    seed = _check_seed(seed)
    names = _bot_list(bots)
    ranges = shard_ranges(n, shards)
    # Validate the rules here, before any task starts.
    _core.simulate_hands(0, rules=rules, bots=names, seed=seed)
    if not ray.is_initialized():
        ray.init(address=address, ignore_reinit_error=True, log_to_driver=False)
    cpus = threads_per_shard or 1
    task = ray.remote(num_cpus=cpus)(_play_shard)
    refs = [task.remote(a, c, rules, names, seed, threads_per_shard) for a, c in ranges]
    parts = ray.get(refs)
    if not parts:
        parts = [_core.simulate_hands(0, rules=rules, bots=names, seed=seed)]
    return SimResult._from_arrays(parts, rules=rules, bots=names, seed=seed)
