"""A streamed cluster run on a local Ray instance: its rate beside one machine's, and the
peak memory of the driver and of every Ray worker, to show that memory stays flat in the
number of hands.

    python benches/cluster_run.py --hands 1000000 --cpus 2 [--bots random] [--one-machine]

Runs ``distributed.simulate(n, out=DIR)`` (one task per shard of ``--shard-hands``
hands, one thread and one CPU each, on a local Ray instance of ``--cpus`` CPUs), then
with ``--one-machine`` ``majiang.simulate(n, out=DIR2, threads=--cpus)``, checks that the
two directories hold the same arrays, and prints the rates and the peak resident set
sizes (``VmHWM``) of this process and of each Ray worker process it started (read from
``/proc``, so Linux only). Run each size in its own process: a process's peak only
grows.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import tempfile
import time
from pathlib import Path

import majiang as mj
from majiang import distributed


def _children() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        kids.setdefault(ppid, []).append(int(entry))
    return kids


def _workers() -> list[tuple[int, str, int]]:
    """``(pid, name, peak RSS in KiB)`` of the Ray worker processes below this one."""
    kids = _children()
    out = []
    todo = list(kids.get(os.getpid(), []))
    while todo:
        pid = todo.pop()
        todo.extend(kids.get(pid, []))
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                name = f.read().split(b"\0")[0].decode(errors="replace")
            with open(f"/proc/{pid}/status") as f:
                peak = next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))
        except (OSError, StopIteration):
            continue
        if name.startswith("ray::") and "Agent" not in name:
            out.append((pid, name, peak))
    return sorted(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=1_000_000)
    ap.add_argument("--cpus", type=int, default=2)
    ap.add_argument("--bots", default="random")
    ap.add_argument("--shard-hands", type=int, default=mj.sim.SHARD_HANDS)
    ap.add_argument("--one-machine", action="store_true")
    args = ap.parse_args()

    import ray

    ray.init(num_cpus=args.cpus, include_dashboard=False, log_to_driver=False)
    scratch = Path(tempfile.mkdtemp(prefix="majiang-cluster-run-"))
    try:
        t = time.perf_counter()
        run = distributed.simulate(
            args.hands,
            bots=args.bots,
            seed=1,
            out=scratch / "cluster",
            shard_hands=args.shard_hands,
        )
        cluster_s = time.perf_counter() - t
        driver_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        workers = _workers()
        print(f"hands {args.hands:,}, bots {args.bots}, {args.cpus} CPUs")
        print(
            f"cluster run: {cluster_s:.1f} s, {args.hands / cluster_s:,.0f} hands/s "
            f"({len(run):,} hands in {len(list((scratch / 'cluster').glob('hands-*.npz')))} "
            "shards)"
        )
        print(f"driver peak RSS: {driver_kib / 1024:.0f} MiB")
        for pid, name, peak in workers:
            print(f"worker {pid} ({name}) peak RSS: {peak / 1024:.0f} MiB")
        if args.one_machine:
            t = time.perf_counter()
            one = mj.simulate(
                args.hands,
                bots=args.bots,
                seed=1,
                out=scratch / "one",
                shard_hands=args.shard_hands,
                threads=args.cpus,
            )
            one_s = time.perf_counter() - t
            rate = args.hands / one_s
            print(f"one machine ({args.cpus} threads): {one_s:.1f} s, {rate:,.0f} hands/s")
            print(f"same arrays: {one.equals(mj.SimResult.load(scratch / 'cluster'))}")
    finally:
        ray.shutdown()
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
