"""Hands per second of ``simulate`` per bot kind, rule set and thread count, this build
beside a previous one.

Run with ``python -m pytest benches/bench_hands.py --benchmark-only``. Each build plays in
a worker process of its own (started and warmed once: lookup tables built, a short
simulation played), which the benchmark asks for one ``simulate(n, rules=..., bots=...,
threads=...)`` per round, so both builds are measured the same way and the pipe's round
trip (microseconds) is all that is added to the play. With ``MAJIANG_BASE_PYTHON`` set to
the interpreter of an environment holding a previous build (a wheel, or ``pip install .``
of a ``git worktree`` of an older commit), every combination is measured for both builds
in turn (``this`` then ``base``, so that both see the same load); without it, ``base`` is
skipped. Each benchmark records ``hands``, ``hands_per_s`` (wall) and ``hands_per_cpu_s``
(the worker's process time, all threads) in its ``extra_info``.

Instruction counts, which do not depend on the machine's load, come from
``benches/compare_builds.py``; ``docs/performance.md`` holds the figures and the floor.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

#: Hands per round, about a second on one core.
HANDS = {"random": 50_000, "efficiency": 5_000, "strong": 500, "expert": 250}
RULES = ["gb", "classic", "huainan"]

WORKER = r"""
import json, sys, time
import majiang as mj
for rules in ("gb", "classic", "huainan"):
    mj.simulate(4, rules=rules, bots="random", seed=99, threads=1)
print("ready", flush=True)
for line in sys.stdin:
    q = json.loads(line)
    c0 = time.process_time()
    r = mj.simulate(q["n"], rules=q["rules"], bots=q["bots"], seed=1, threads=q["threads"])
    cpu = time.process_time() - c0
    print(json.dumps({"hands": len(r), "cpu": cpu}), flush=True)
"""


class Worker:
    """A process of one build answering ``simulate`` requests over a pipe."""

    def __init__(self, python: str) -> None:
        self.proc = subprocess.Popen(
            [python, "-c", WORKER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None
        first = self.proc.stdout.readline().strip()
        if first != "ready":
            self.close()
            raise RuntimeError(f"the worker of {python} did not start")

    def simulate(self, n: int, rules: str, bots: str, threads: int) -> dict[str, float]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(
            json.dumps({"n": n, "rules": rules, "bots": bots, "threads": threads})
        )
        self.proc.stdin.write("\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=60)


@pytest.fixture(scope="module")
def workers():
    started: dict[str, Worker] = {"this": Worker(sys.executable)}
    base = os.environ.get("MAJIANG_BASE_PYTHON")
    if base:
        started["base"] = Worker(base)
    yield started
    for w in started.values():
        w.close()


# The build varies fastest: both builds of a combination run one after the other.
@pytest.mark.parametrize("build", ["this", "base"])
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("bots", list(HANDS))
@pytest.mark.parametrize("rules", RULES)
def test_hands(benchmark, workers, build, rules, bots, threads):
    if build not in workers:
        pytest.skip("MAJIANG_BASE_PYTHON (a previous build's interpreter) is not set")
    w = workers[build]
    n = HANDS[bots]
    w.simulate(max(1, n // 20), rules, bots, threads)
    cpu: list[float] = []
    wall: list[float] = []

    def play():
        t0 = time.perf_counter()
        out = w.simulate(n, rules, bots, threads)
        wall.append(time.perf_counter() - t0)
        assert out["hands"] == n
        cpu.append(out["cpu"])

    benchmark.group = f"{rules} {bots} {threads}T"
    benchmark.pedantic(play, rounds=3)
    benchmark.extra_info["hands"] = n
    benchmark.extra_info["hands_per_s"] = n * len(wall) / sum(wall)
    benchmark.extra_info["hands_per_cpu_s"] = n * len(cpu) / max(sum(cpu), 1e-9)
