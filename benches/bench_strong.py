"""The strong bots' speed: whole hands in ``simulate`` and single decisions.

Run: ``python -m pytest benches/bench_strong.py --benchmark-only`` (hands of
``simulate(bots=...)`` on one thread for the strong family, and the per-round time of a
fixed list of real decisions), or

- ``python benches/bench_strong.py [HANDS] [ROLLOUTS]`` to play hands with StrongBot in
  seat 0 against three efficiency policies and print the median decision time over every
  decision and over the decisions with a choice (the default bot does not search:
  ROLLOUTS 0; a search keeps its 50 ms wall-clock cap);
- ``python benches/bench_strong.py ab OTHER_PYTHON [HANDS] [REPEATS] [BOTS] [THREADS]`` to
  compare hands per second of ``simulate(HANDS, bots=BOTS, threads=THREADS)`` (default 40
  hands, 3 repeats, ``strong``, 1 thread) between this interpreter's majiang and the one
  installed for OTHER_PYTHON (e.g. a virtual environment holding another build), the runs
  interleaved so that both see the same machine load; prints every run, the medians and
  their ratio, by the wall clock and by the process's CPU time (which other work on a
  shared machine disturbs less).

Instructions per hand, which this shared machine measures far more steadily than time:
``valgrind --tool=callgrind python -c "..."`` on ``simulate(1, seed=99, bots="random",
threads=1)`` then ``simulate(N, seed=1, bots="strong", threads=1)`` for N = 10 and 20,
the difference divided by 10, with ``OPENBLAS_NUM_THREADS=1`` (numpy's idle BLAS threads
otherwise add up to a million instructions of noise; ``valgrind --tool=cachegrind``
counts the same): 31.4 million (34.7 million before the packed memo keys, the memos'
fill bitmaps, the curves run only as far as the seat's turns and the cheaper fan
evaluation of waiting hands; 36.2 million before the waits of a waiting hand were scored
together, ``fan::Waiting``; 47.6 million before the remembered shapes and ready curves,
the melded useful-tile path and the cheaper discard memo; 55.6 million before the shared
wait scoring, rank codes and ready-curve squares; 240 million before the lookahead's
memos). ``bots="expert"``: 30.6 million (33.4 million before the packed keys; 35.2
million before ``fan::Waiting``). By the clock, ``ab ... 160 9 strong 1`` against the
build before the lookahead's memos gave 5.11 and 5.33 times the hands per second in two
runs (medians of nine interleaved runs, load 1.1 to 1.3; CPU time 5.09 and 5.35), and
1.21 times the build before the packed keys and the fan changes; ``ab ... 240 7 strong
2`` (two threads each) 4.97 times (CPU time 4.74).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

import pytest

import majiang as mj
from majiang import _core
from majiang.bots import StrongBot


class _Efficiency:
    def __init__(self, seed: int) -> None:
        self._p = _core.Policy("efficiency", rules="gb", seed=seed)

    def act(self, obs):
        return self._p.choose(obs)


def play(hands: int, rollouts: int, seed: int = 7) -> tuple[list[float], list[float]]:
    """Plays `hands` hands; returns StrongBot's decision times (s): all, and on its turns."""
    strong = StrongBot(seed=seed, rollouts=rollouts)
    others = [_Efficiency(seed + s) for s in (1, 2, 3)]
    all_t: list[float] = []
    chosen: list[float] = []
    for h in range(hands):
        r = mj.Round("gb", seed * 1000 + h, h % 4, 0)
        while r.pending:
            seat = r.pending[0]
            obs = r.observation(seat)
            if seat == 0:
                t0 = time.perf_counter()
                a = strong.act(obs)
                dt = time.perf_counter() - t0
                all_t.append(dt)
                if obs.phase == "turn":
                    chosen.append(dt)
            else:
                a = others[seat - 1].act(obs)
            r.apply(seat, a)
    return all_t, chosen


def _decisions(n_hands: int = 4) -> list:
    """Real seat-0 decisions with a choice, from hands played by efficiency policies."""
    bots = [_Efficiency(s) for s in range(4)]
    out = []
    for h in range(n_hands):
        r = mj.Round("gb", 500 + h, h % 4, 0)
        while r.pending:
            seat = r.pending[0]
            obs = r.observation(seat)
            if seat == 0 and len(obs.legal_actions) > 1:
                out.append(obs)
            r.apply(seat, bots[seat].act(obs))
    return out


DECISIONS = _decisions()


SIM_HANDS = {"strong": 20, "strong_lite": 40, "strong_search": 2}


@pytest.mark.parametrize("bots", list(SIM_HANDS))
def test_simulate_hands(benchmark, bots):
    """Hands of four ``bots`` played by ``simulate`` on one thread (hands/s = n / time)."""
    n = SIM_HANDS[bots]
    mj.simulate(1, seed=99, bots="random", threads=1)  # the shanten tables, built once
    benchmark.extra_info["hands"] = n
    benchmark.pedantic(lambda: mj.simulate(n, seed=1, bots=bots, threads=1), rounds=3, iterations=1)


@pytest.mark.parametrize("rollouts", [0, 10, 50])
def test_strong_decisions(benchmark, rollouts):
    bot = StrongBot(seed=1, rollouts=rollouts, time_cap=False)
    benchmark(lambda: [bot.act(o) for o in DECISIONS])


def test_efficiency_decisions(benchmark):
    bot = _Efficiency(1)
    benchmark(lambda: [bot.act(o) for o in DECISIONS])


_RATE = (
    "import time, majiang as mj\n"
    "mj.simulate(1, seed=99, bots='random', threads=1)\n"
    "t, c = time.perf_counter(), time.process_time()\n"
    "mj.simulate({n}, seed=1, bots={bots!r}, threads={threads})\n"
    "print({n} / (time.perf_counter() - t), {n} / (time.process_time() - c))\n"
)


def compare(other: str, hands: int, repeats: int, bots: str, threads: int = 1) -> None:
    """Interleaved runs of ``simulate`` here and under the interpreter ``other``."""
    code = _RATE.format(n=hands, bots=bots, threads=threads)
    runs: dict[str, list[tuple[float, float]]] = {"this": [], "other": []}
    for _ in range(repeats):
        for name, py in (("other", other), ("this", sys.executable)):
            out = subprocess.run([py, "-c", code], capture_output=True, text=True, check=True)
            wall, cpu = (float(x) for x in out.stdout.split())
            runs[name].append((wall, cpu))
    for i, clock in enumerate(("wall", "cpu")):
        for name, rates in runs.items():
            shown = " ".join(f"{r[i]:.1f}" for r in rates)
            median = statistics.median(r[i] for r in rates)
            print(f"{name:>5} {clock:>4}: {shown} hands/s, median {median:.1f}")
        ratio = statistics.median(r[i] for r in runs["this"]) / statistics.median(
            r[i] for r in runs["other"]
        )
        print(f"ratio this/other ({clock}): {ratio:.2f}")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "ab":
        compare(
            sys.argv[2],
            int(sys.argv[3]) if len(sys.argv) > 3 else 40,
            int(sys.argv[4]) if len(sys.argv) > 4 else 3,
            sys.argv[5] if len(sys.argv) > 5 else "strong",
            int(sys.argv[6]) if len(sys.argv) > 6 else 1,
        )
        sys.exit(0)
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    rollouts = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    all_t, chosen = play(hands, rollouts)
    ms = 1000.0
    n = f"{len(all_t)} ({len(chosen)} on its turns)"
    print(f"hands {hands}, rollouts {rollouts}, decisions {n}")
    print(f"median all     {statistics.median(all_t) * ms:.3f} ms")
    print(f"median turns   {statistics.median(chosen) * ms:.3f} ms")
    print(f"p90 turns      {statistics.quantiles(chosen, n=10)[-1] * ms:.3f} ms")
    print(f"max            {max(all_t) * ms:.3f} ms")
