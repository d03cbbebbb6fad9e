"""The heavy workloads beyond one machine: simulations, arenas, the ladder and the
conversion of many files, sharded over a Ray cluster.

Install the extra with ``pip install "majiang[ray]"`` on every node (the recipe, from
starting the cluster to reading a 100-million-hand study back with numpy alone, is in
``docs/cluster.md``). Hand ``i`` of a simulation, and game ``j`` of an arena, depend
only on the seed and their index, so a run cut into ranges played as Ray tasks gives
exactly what one machine gives:

- :func:`simulate` equals :func:`majiang.simulate`. With ``out=DIR`` the workers write
  their shards straight into the shard directory of ``majiang.simulate(out=DIR)`` (the
  same format: either resumes the other, :meth:`majiang.SimResult.load` reads it) and
  the driver keeps its manifest, so memory stays flat in the number of hands;
  ``resume=True`` plays only the shards missing or damaged.
- :func:`arena` and :func:`ladder` equal :func:`majiang.arena` and
  :func:`majiang.ladder`: the walls are sharded, the games gathered in order and summed
  up (intervals included) as one machine does.
- :func:`map_files` converts many files (game logs into training samples:
  :class:`GameSamples`, over :mod:`majiang.data`) with a pluggable per-file
  :class:`FileConverter`, streaming each task's rows into the shard files of a directory
  with a manifest; :class:`RowShards` reads them back.

Every run prints a progress line with ``progress=True`` (done, rate, time left). Ray
plays a shard again when its worker dies (``max_retries``); a shard that fails
otherwise stops the run with :class:`~majiang.ShardError` naming its range, its node and
the worker's error, and a run into a directory then resumes with ``resume=True``.

Point it at a cluster the Ray way: start a head node (``ray start --head``) and workers
(``ray start --address=HEAD:6379``) with majiang installed on every node, then either
call ``ray.init(address="auto")`` before these functions, set ``RAY_ADDRESS``, or pass
``address="HEAD:6379"``. Without any of these a local Ray instance is started.
"""

from __future__ import annotations

from ..errors import ShardError
from ._arena import arena, ladder
from ._convert import (
    FILES_PER_TASK,
    ROWS_PER_SHARD,
    FileConverter,
    GameSamples,
    RowShards,
    botzone_hands,
    converter_name,
    map_files,
)
from ._simulate import shard_ranges, simulate

__all__ = [
    "FILES_PER_TASK",
    "ROWS_PER_SHARD",
    "FileConverter",
    "GameSamples",
    "RowShards",
    "ShardError",
    "arena",
    "botzone_hands",
    "converter_name",
    "ladder",
    "map_files",
    "shard_ranges",
    "simulate",
]
