"""The duplicate arena and the ladder on a Ray cluster: walls sharded over tasks, the
games gathered in order and summed up exactly as one machine does."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import _core
from .._core import RuleSet
from ..errors import InvalidArgumentError, InvalidTypeError
from ..ladder import DEFAULT_WALLS, LadderResult, _ladder_bots, _pair_figures
from ..sim import (
    _ARENA_COLUMNS,
    ArenaResult,
    _arena_entries,
    _check_count,
    _check_in_memory,
    _check_seed,
    _illegal_count,
    _rules_spec,
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
from ._simulate import shard_ranges

__all__ = ["arena", "ladder"]


def _play_games(
    first: int,
    count: int,
    rules: Any,
    entries: list[Any],
    names: list[str],
    seed: int,
    duplicate: bool,
    threads: int | None,
) -> dict[str, Any]:
    """The task of an arena shard: games ``first .. first + count`` (whole walls under
    duplicate play) with ``entries`` (built-in names, or Python bots shipped pickled),
    and per entry how many of its answers its fallback replaced meanwhile (None for a
    name or a bot that does not count)."""
    before = [None if isinstance(e, str) else _illegal_count(e) for e in entries]
    arrays = _core.arena_games(
        count,
        rules=rules,
        bots=entries,
        seed=seed,
        start=first,
        duplicate=duplicate,
        threads=threads,
        names=names,
    )
    invalid = [
        None if b is None else (_illegal_count(e) or 0) - b
        for e, b in zip(entries, before, strict=True)
    ]
    return {"arrays": arrays, "invalid": invalid, "node": hostname()}


def _shipped(ray: Any, objects: list[Any], names: list[str]) -> None:
    """Checks that every Python bot can be sent to the workers (pickled)."""
    for i, o in enumerate(objects):
        if o is None:
            continue
        try:
            ray.cloudpickle.dumps(o)
        except Exception as e:  # noqa: BLE001 - whatever stops pickling
            raise InvalidArgumentError(
                f"bot {i} ({names[i]}) cannot be sent to the workers: it does not pickle "
                f"({type(e).__name__}: {e}); give built-in bots by name, and Python bots "
                "that pickle"
            ) from None


def _games(first: int, count: int) -> str:
    return f"games {first:,} to {first + count - 1:,}"


def _merge(parts: list[dict[str, Any]]) -> dict[str, Any]:
    return {c: np.concatenate([p["arrays"][c] for p in parts]) for c in _ARENA_COLUMNS}


def arena(
    bots: str | Sequence[Any],
    *,
    hands: int,
    seed: int = 0,
    rules: str | RuleSet = "gb",
    duplicate: bool = True,
    shards: int = 8,
    threads_per_shard: int | None = None,
    address: str | None = None,
    progress: bool = False,
    max_retries: int = 3,
) -> ArenaResult:
    """Plays :func:`majiang.arena` on a Ray cluster: the walls are cut into ``shards``
    contiguous ranges, each played as a Ray task, and the games gathered in order, so
    the :class:`~majiang.ArenaResult` equals ``majiang.arena(bots, hands=hands,
    seed=seed, rules=rules, duplicate=duplicate)`` array for array, and its summary
    (the 95% intervals, computed from the gathered per-wall results) figure for figure.

    ``bots``: as :func:`majiang.arena`. Built-in bots are given by name. A Python bot is
    sent to each task pickled (Ray's pickler; a bot holding a built-in policy object,
    such as :class:`~majiang.bots.EfficiencyBot`, does not pickle: give its name), and
    each task plays with its own copy, so the games equal one machine's when the bot's
    play depends only on the game (as for a bot that reseeds in ``begin_hand(seed)``);
    its ``illegal`` counts are summed over the tasks into ``invalid``.

    ``shards``, ``threads_per_shard``, ``address``, ``progress`` (games) and
    ``max_retries`` as in :func:`simulate`. A failing shard raises
    :class:`~majiang.ShardError` naming its games, node and the worker's error (a bot's
    :class:`~majiang.BotError` chained); nothing of the run is kept.
    """
    n = _check_count("hands", hands)
    seed = _check_seed(seed)
    names, objects = _arena_entries(bots)
    if not isinstance(duplicate, bool):
        raise InvalidTypeError(f"duplicate must be a bool, got {type(duplicate).__name__}")
    if duplicate:
        n = 4 * math.ceil(n / 4)
    _check_in_memory("hands", n)
    threads = check_threads(threads_per_shard)
    retries = check_retries(max_retries)
    rule_name, options = _rules_spec(rules)
    unit = 4 if duplicate else 1
    ranges = [(unit * a, unit * c) for a, c in shard_ranges(n // unit, shards)]
    ray = ray_module(address)
    _shipped(ray, objects, names)
    entries = [name if o is None else o for name, o in zip(names, objects, strict=True)]
    python = any(o is not None for o in objects)
    parts: dict[int, dict[str, Any]] = {}
    failures = run_jobs(
        ray,
        _play_games,
        [
            Job(a, c, _games(a, c), (a, c, rules, entries, names, seed, duplicate, threads))
            for a, c in ranges
        ],
        lambda job, value: parts.__setitem__(job.first, value),
        name="majiang.arena",
        cpus=1 if python else threads,
        max_retries=retries,
        progress=Progress("arena", "games", n, 0, show=bool(progress)),
    )
    if failures:
        raise_shard_error(failures, "Nothing of the arena is kept: run it again.", unit="games")
    ordered = [parts[a] for a, _ in ranges]
    if ordered:
        arrays = _merge(ordered)
    else:
        arrays = _core.arena_games(0, rules=rules, bots=names, seed=seed, duplicate=duplicate)
    invalid = None
    if any(o is not None and _illegal_count(o) is not None for o in objects):
        invalid = [
            None
            if o is None or _illegal_count(o) is None
            else sum(p["invalid"][b] or 0 for p in ordered)
            for b, o in enumerate(objects)
        ]
    return ArenaResult(
        bots=names,
        **{c: arrays[c] for c in _ARENA_COLUMNS},
        rules=rule_name,
        seed=seed,
        duplicate=duplicate,
        rule_options=options,
        invalid=invalid,
    )


def ladder(
    bots: str | Sequence[str] | None = None,
    *,
    walls: int = DEFAULT_WALLS,
    seed: int = 0,
    rules: str | RuleSet = "gb",
    shards: int = 8,
    threads_per_shard: int | None = None,
    address: str | None = None,
    progress: bool = False,
    max_retries: int = 3,
) -> LadderResult:
    """Plays :func:`majiang.ladder` on a Ray cluster: every ordered pair's walls are cut
    into ``shards`` ranges and all the pairs' shards are played as Ray tasks at once;
    each pair is summed up as one machine does (its games gathered in order, the mean
    and 95% interval over walls), so the :class:`~majiang.LadderResult` equals
    ``majiang.ladder(bots, walls=walls, seed=seed, rules=rules)``.

    ``threads_per_shard``, ``address``, ``progress`` (games) and ``max_retries`` as in
    :func:`simulate`. A failing shard raises :class:`~majiang.ShardError` whose
    ``partial`` is the :class:`~majiang.LadderResult` of the pairs finished; Ctrl-C
    raises ``KeyboardInterrupt`` with the same ``partial``.
    """
    names = _ladder_bots(bots, walls)
    seed = _check_seed(seed)
    threads = check_threads(threads_per_shard)
    retries = check_retries(max_retries)
    rule_name, options = _rules_spec(rules)
    k = len(names)
    mean = np.full((k, k), np.nan)
    low = np.full((k, k), np.nan)
    high = np.full((k, k), np.nan)
    ranges = [(4 * a, 4 * c) for a, c in shard_ranges(walls, shards)]
    pairs = [(a, b) for a in range(k) for b in range(k) if a != b]
    jobs = []
    for a, b in pairs:
        seats = [names[a], names[b], names[b], names[b]]
        for first, count in ranges:
            what = f"{names[a]} against three {names[b]}, {_games(first, count)}"
            args = (first, count, rules, seats, seats, seed, True, threads)
            jobs.append(Job(first, count, what, args, key=(a, b)))
    parts: dict[tuple[int, int], dict[int, Any]] = {pair: {} for pair in pairs}

    def on_done(job: Job, value: Any) -> None:
        a, b = job.key
        got = parts[job.key]
        got[job.first] = value
        if len(got) == len(ranges):
            games = ArenaResult(
                bots=[names[a], names[b], names[b], names[b]],
                **_merge([got[first] for first, _ in ranges]),
                rules=rule_name,
                seed=seed,
                duplicate=True,
                rule_options=options,
            )
            mean[a, b], low[a, b], high[a, b] = _pair_figures(games)
            got.clear()

    def result() -> LadderResult:
        return LadderResult.snapshot(names, walls, seed, rule_name, options, mean, low, high)

    ray = ray_module(address)
    try:
        failures = run_jobs(
            ray,
            _play_games,
            jobs,
            on_done,
            name="majiang.ladder",
            cpus=threads,
            max_retries=retries,
            progress=Progress("ladder", "games", 4 * walls * len(pairs), 0, show=bool(progress)),
        )
    except KeyboardInterrupt as e:
        e.partial = result()  # type: ignore[attr-defined]
        raise
    if failures:
        raise_shard_error(
            failures,
            "The pairs finished are in the error's partial result.",
            unit="games",
            partial=result(),
        )
    return result()
