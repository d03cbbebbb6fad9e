"""``simulate`` on a Ray cluster: into the driver's memory, or streamed by the workers
into a shard directory that the driver keeps the manifest of."""

from __future__ import annotations

import contextlib
import math
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .. import _core, signing
from .._core import RuleSet
from ..errors import InvalidArgumentError, ResultFileError
from ..sim import (
    SHARD_HANDS,
    SimResult,
    _bot_list,
    _check_count,
    _check_in_memory,
    _check_seed,
    _check_shard_hands,
    _rules_spec,
    _ShardStore,
    _ShardWriter,
    _write_shard,
)
from ._runner import (
    Job,
    Progress,
    check_retries,
    check_threads,
    hostname,
    raise_shard_error,
    ray_module,
    run_jobs,
)

__all__ = ["shard_ranges", "simulate"]

#: Seconds between two writes of the manifest while shards come in (and once at the end).
MANIFEST_EVERY = 1.0


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
    """The task of a run kept in memory: the arrays of hands ``start .. start + count``."""
    return _core.simulate_hands(
        count, rules=rules, bots=bots, seed=seed, start=start, threads=threads
    )


def _write_hands(
    out: str,
    start: int,
    count: int,
    rules: Any,
    bots: list[str],
    seed: int,
    threads: int | None,
) -> dict[str, Any]:
    """The task of a streamed run: plays hands ``start .. start + count`` and writes them
    as the shard ``hands-<start>.npz`` of the directory ``out`` (a temporary file in
    that directory, renamed when complete); returns the shard's manifest entry and this
    node's name. The driver checks the file and lists it."""
    directory = Path(out)
    if not directory.is_dir():
        raise ResultFileError(
            f"{out} is not a directory on {hostname()}: out= must be a directory every node "
            "sees at the same path (a shared file system)"
        )
    arrays = _core.simulate_hands(
        count, rules=rules, bots=bots, seed=seed, start=start, threads=threads
    )
    return {"entry": _write_shard(directory, start, arrays), "node": hostname()}


def _hands(first: int, count: int) -> str:
    return f"hands {first:,} to {first + count - 1:,}"


def simulate(
    n_hands: int,
    *,
    rules: str | RuleSet = "gb",
    bots: str | Sequence[str] = "efficiency",
    seed: int = 0,
    shards: int | None = None,
    threads_per_shard: int | None = None,
    address: str | None = None,
    out: str | os.PathLike[str] | None = None,
    resume: bool = False,
    shard_hands: int = SHARD_HANDS,
    key: bytes | str | None = None,
    progress: bool = False,
    max_retries: int = 3,
) -> SimResult:
    """Plays ``n_hands`` hands on a Ray cluster and returns the same
    :class:`~majiang.SimResult` as :func:`majiang.simulate` with these arguments
    (``rules``, ``bots``, ``seed``; ``out``, ``resume``, ``shard_hands`` and ``key`` as
    there).

    Without ``out`` the run is cut into ``shards`` ranges (8 when None), played as Ray
    tasks and gathered into the driver's memory (at most
    :data:`~majiang.MAX_IN_MEMORY_HANDS` hands).

    With ``out=DIR`` the workers write the hands straight into the shard directory
    ``DIR``, one task per shard of ``shard_hands`` hands (``shards`` is not used), and
    the driver (this process) holds the directory's lock, checks each shard's SHA-256
    as it comes in and keeps the manifest, so that memory stays flat in ``n_hands`` in
    every process. ``DIR`` must be on a file system every node mounts at the same path.
    The directory is the one :func:`majiang.simulate` writes: either resumes the other,
    and :meth:`~majiang.SimResult.load` reads it. ``resume=True`` plays only the shards
    the directory lacks: those never written, those written after a gap by a run that
    was stopped, and those found damaged or missing (every listed shard's digest is
    checked first).

    ``threads_per_shard``: threads of each task, and the CPUs it asks Ray for (one when
    None: Ray then runs one task per CPU). ``address``: a Ray cluster to connect to
    when Ray is not initialized yet (default: ``RAY_ADDRESS``, else a local instance).
    ``progress``: a progress line on stderr (hands done, rate, time left).
    ``max_retries``: times Ray plays a shard again whose worker died (a killed process,
    a lost node).

    A shard whose task raises, or whose worker dies more than ``max_retries`` times,
    stops the run: no new shard starts, those in flight finish and are listed, and
    :class:`~majiang.ShardError` names the shard's range, its node and the worker's
    error (every failing shard is also written to stderr as it fails); with ``out``,
    ``resume=True`` then plays what is missing. Ctrl-C cancels the tasks and raises
    ``KeyboardInterrupt`` whose ``partial`` reads the shards listed (with ``out``).
    Raises :class:`~majiang.MissingExtraError` when Ray is not installed.
    """
    n = _check_count("n_hands", n_hands)
    seed = _check_seed(seed)
    names = _bot_list(bots)
    threads = check_threads(threads_per_shard)
    retries = check_retries(max_retries)
    rule_name, options = _rules_spec(rules)
    meta: dict[str, Any] = {
        "rules": rule_name,
        "rule_options": options,
        "bots": names,
        "seed": seed,
    }
    cpus = threads
    if out is None:
        if resume:
            raise InvalidArgumentError("resume=True continues a run on disk: pass out=PATH")
        if key is not None:
            raise InvalidArgumentError("key= signs a shard directory: pass out=PATH")
        _check_in_memory("n_hands", n)
        ranges = shard_ranges(n, 8 if shards is None else shards)
        ray = ray_module(address)
        parts: dict[int, dict[str, Any]] = {}
        jobs = [Job(a, c, _hands(a, c), (a, c, rules, names, seed, threads)) for a, c in ranges]
        failures = run_jobs(
            ray,
            _play_shard,
            jobs,
            lambda job, arrays: parts.__setitem__(job.first, arrays),
            name="majiang.simulate",
            cpus=cpus,
            max_retries=retries,
            progress=Progress("simulate", "hands", n, 0, show=bool(progress)),
        )
        if failures:
            raise_shard_error(
                failures,
                "A run kept in memory keeps nothing of it: pass out=DIR to keep the "
                "finished shards on disk and resume.",
                unit="hands",
            )
        ordered = [parts[a] for a, _ in ranges]
        if not ordered:
            ordered = [_core.simulate_hands(0, rules=rules, bots=names, seed=seed)]
        return SimResult._from_arrays(ordered, **meta)

    if shards is not None:
        raise InvalidArgumentError(
            "with out=, the run is cut into shards of shard_hands hands, one task each; "
            "shards= cuts a run kept in memory"
        )
    shard_hands = _check_shard_hands(shard_hands)
    if key is not None:
        signing.key_bytes(key)
    path = Path(out).absolute()
    ray = ray_module(address)
    writer = _ShardWriter(path, meta, resume, key)
    failures = []
    try:
        if writer.hands > n:
            raise ResultFileError(
                f"{path} already holds {writer.hands:,} hands, more than n_hands={n:,}"
            )
        writer.limit(n)
        gaps = writer.gaps(n)
        done = n - sum(end - first for first, end in gaps)
        bar = Progress("simulate", "hands", n, done, show=bool(progress))
        for sh, why in writer.repaired:
            bar.note(f"resume: {why}; its {_hands(sh['start'], sh['hands'])} are played again")
        streamed = (
            Job(a, c, _hands(a, c), (str(path), a, c, rules, names, seed, threads))
            for first, end in gaps
            for a in range(first, end, shard_hands)
            for c in [min(shard_hands, end - a)]
        )
        last = time.monotonic()

        def on_done(job: Job, value: Any) -> None:
            entry = value.get("entry") if isinstance(value, dict) else None
            writer.adopt(entry, job.first, job.count)

        def every() -> None:
            nonlocal last
            if time.monotonic() - last >= MANIFEST_EVERY:
                writer.flush()
                last = time.monotonic()

        failures = run_jobs(
            ray,
            _write_hands,
            streamed,
            on_done,
            name="majiang.simulate",
            cpus=cpus,
            max_retries=retries,
            progress=bar,
            after_each=every,
        )
        writer.flush()
        # Every task has ended: what a killed worker left half written can go.
        writer.clean_temporary()
    except KeyboardInterrupt as e:
        with contextlib.suppress(ResultFileError):
            writer.flush()
        e.partial = SimResult._of_store(  # type: ignore[attr-defined]
            _ShardStore.open(path, verify=False, key=key)
        )
        raise
    finally:
        writer.close()
    result = SimResult._of_store(_ShardStore.open(path, verify=False, key=key))
    if failures:
        raise_shard_error(
            failures,
            f"The {len(result):,} hands from hand 0 on (and the shards after a gap) are "
            f"listed in {path / 'manifest.json'}: run again with resume=True to play "
            "the rest.",
            unit="hands",
            partial=result,
        )
    return result
