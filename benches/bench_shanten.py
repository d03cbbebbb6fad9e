"""Shanten and useful tiles: majiang against PyMahjongGB 1.4.0 and riichienv, same hands.

Run: ``python -m pytest benches/bench_shanten.py --benchmark-only``. Every benchmark walks
the same 5,000 seeded random 13-tile hands (no melds, drawn from a full 136-tile set), so
the per-round times divide directly into per-hand times and ratios:

* ``mj.shanten`` (all five GB forms) vs ``MahjongGB.MahjongShanten`` (the same five forms)
  vs ``riichienv.calculate_shanten`` (riichi forms: regular, seven pairs, thirteen orphans);
* ``mj.useful_tiles`` (all forms, and ``form="regular"``) vs ``MahjongGB.RegularShanten``
  (regular form, shanten and useful tiles);
* ``mj.shanten_batch`` on the hands as one ``(N, 34)`` uint8 array.

``python benches/bench_shanten.py`` prints the same comparison as a table of ratios (best
of several interleaved rounds, so that a busy machine disturbs it least: single calls by
CPU time on one core, the batches by wall time on every core, the large batch being the
same 100,000 hands as ``test_shanten_batch_throughput``).
"""

from __future__ import annotations

import random
import time

import numpy as np
import pytest

import majiang as mj

MahjongGB = pytest.importorskip("MahjongGB")
riichienv = pytest.importorskip("riichienv")

N = 5_000
SEED = 7
CODES = (
    [f"W{i}" for i in range(1, 10)]
    + [f"B{i}" for i in range(1, 10)]
    + [f"T{i}" for i in range(1, 10)]
    + ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]
)


def _hands():
    rng = random.Random(SEED)
    out = []
    for _ in range(N):
        ids = sorted(rng.sample(range(136), 13))  # physical tiles: kind = id // 4
        out.append(ids)
    return out


IDS = _hands()
HANDS = [[i // 4 for i in ids] for ids in IDS]
REF = [tuple(CODES[t] for t in h) for h in HANDS]
COUNTS = np.zeros((N, 34), dtype=np.uint8)
for _row, _h in enumerate(HANDS):
    for _t in _h:
        COUNTS[_row, _t] += 1
mj.shanten(HANDS[0])  # build the tables outside the timings


def ours_shanten() -> int:
    f = mj.shanten
    return sum(f(h) for h in HANDS)


def ref_shanten() -> int:
    f = MahjongGB.MahjongShanten
    return sum(f((), h) for h in REF)


def riichi_shanten() -> int:
    f = riichienv.calculate_shanten
    return sum(f(ids) for ids in IDS)


def ours_useful() -> int:
    f = mj.useful_tiles
    return sum(len(f(h)) for h in HANDS)


def ours_useful_regular() -> int:
    f = mj.useful_tiles
    return sum(len(f(h, form="regular")) for h in HANDS)


def ref_useful_regular() -> int:
    f = MahjongGB.RegularShanten
    return sum(len(f(h)[1]) for h in REF)


def ours_batch() -> int:
    return int(mj.shanten_batch(COUNTS).sum())


def test_same_answers():
    """The benchmarks compare like with like: the same shanten on these hands, except
    where a kind is held four times (PyMahjongGB then may count a fifth copy)."""
    for h, r in zip(HANDS, REF, strict=True):
        if max(h.count(t) for t in h) < 4:
            assert mj.shanten(h) == MahjongGB.MahjongShanten((), r)
    assert list(mj.shanten_batch(COUNTS)) == [mj.shanten(h) for h in HANDS]


@pytest.mark.parametrize(
    "fn",
    [ours_shanten, ref_shanten, riichi_shanten, ours_batch],
    ids=[
        "mj.shanten",
        "MahjongGB.MahjongShanten",
        "riichienv.calculate_shanten",
        "mj.shanten_batch",
    ],
)
def test_shanten(benchmark, fn):
    benchmark.group = f"shanten, {N} hands"
    benchmark.extra_info["hands"] = N
    benchmark(fn)


LARGE = 100_000


def _large_batch() -> np.ndarray:
    rng = np.random.default_rng(SEED)
    ids = np.argsort(rng.random((LARGE, 136)), axis=1)[:, :13] // 4
    counts = np.zeros((LARGE, 34), dtype=np.uint8)
    np.add.at(counts, (np.repeat(np.arange(LARGE), 13), ids.ravel()), 1)
    return counts


def test_shanten_batch_throughput(benchmark):
    """``shanten_batch`` on 100,000 random 13-tile hands in one array: the throughput a
    simulation pipeline sees (divide by 100,000 for the time per hand)."""
    counts = _large_batch()
    benchmark.group = f"shanten_batch, {LARGE:,} hands"
    benchmark.extra_info["hands"] = LARGE
    out = benchmark(mj.shanten_batch, counts)
    assert out.shape == (LARGE,) and out.min() >= 0


@pytest.mark.parametrize(
    "fn",
    [ours_useful, ours_useful_regular, ref_useful_regular],
    ids=["mj.useful_tiles", "mj.useful_tiles(form=regular)", "MahjongGB.RegularShanten"],
)
def test_useful_tiles(benchmark, fn):
    benchmark.group = f"useful tiles, {N} hands"
    benchmark.extra_info["hands"] = N
    benchmark(fn)


def _best(rows, rounds: int = 7) -> tuple[dict, dict]:
    """Best CPU time and best wall time per hand of each function over ``rounds`` rounds,
    in seconds. The functions take turns within each round, so a busy machine slows them
    alike. CPU time is the fair measure for single calls on a shared machine (a long loop is
    descheduled more often than a short one); the batch's wall time shows its use of every
    core."""
    cpu = {name: float("inf") for name, _ in rows}
    wall = dict(cpu)
    for _ in range(rounds):
        for name, fn in rows:
            t, c = time.perf_counter(), time.process_time()
            fn()
            wall[name] = min(wall[name], time.perf_counter() - t)
            cpu[name] = min(cpu[name], time.process_time() - c)
    return {k: v / N for k, v in cpu.items()}, {k: v / N for k, v in wall.items()}


def main() -> None:
    rows = [
        ("mj.shanten", ours_shanten),
        ("MahjongGB.MahjongShanten", ref_shanten),
        ("riichienv.calculate_shanten", riichi_shanten),
        ("mj.shanten_batch", ours_batch),
        ("mj.useful_tiles", ours_useful),
        ("mj.useful_tiles(form='regular')", ours_useful_regular),
        ("MahjongGB.RegularShanten", ref_useful_regular),
    ]
    cpu, wall = _best(rows)
    large = _large_batch()
    mj.shanten_batch(large)
    large_wall = float("inf")
    for _ in range(20):
        t = time.perf_counter()
        mj.shanten_batch(large)
        large_wall = min(large_wall, (time.perf_counter() - t) / LARGE)
    print(f"{'call':34} {'CPU/hand':>10} {'wall/hand':>10}")
    for name, _ in rows:
        print(f"{name:34} {cpu[name] * 1e9:7.0f} ns {wall[name] * 1e9:7.0f} ns")
    print(f"{'mj.shanten_batch, 100,000 hands':34} {'':>10} {large_wall * 1e9:7.0f} ns")
    ref, reg = cpu["MahjongGB.MahjongShanten"], cpu["MahjongGB.RegularShanten"]
    print()
    print("ratios (CPU time; the batches by wall time, on every core):")
    wall_ratio = wall["MahjongGB.MahjongShanten"] / wall["mj.shanten_batch"]
    print(f"  shanten_batch (5,000 hands) vs MahjongShanten    {wall_ratio:7.1f}x")
    large_ratio = wall["MahjongGB.MahjongShanten"] / large_wall
    print(f"  shanten_batch (100,000 hands) vs MahjongShanten  {large_ratio:7.1f}x")
    print(f"  mj.shanten vs MahjongShanten                     {ref / cpu['mj.shanten']:7.1f}x")
    riichi = cpu["riichienv.calculate_shanten"]
    print(f"  mj.shanten vs riichienv                          {riichi / cpu['mj.shanten']:7.2f}x")
    all_forms = cpu["mj.useful_tiles"]
    print(f"  useful_tiles vs RegularShanten                   {reg / all_forms:7.1f}x")
    regular_only = cpu["mj.useful_tiles(form='regular')"]
    print(f"  useful_tiles(regular) vs RegularShanten          {reg / regular_only:7.1f}x")


if __name__ == "__main__":
    main()
