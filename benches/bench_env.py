"""Throughput of the learning environment: ``VecEnv`` stepped with random legal actions
beside RiichiEnv (``riichienv`` on PyPI, the ``bench`` extra) stepping random agents.

What is compared, like with like:

- **random play on every seat**: the learning seat of each ``VecEnv`` table takes a
  uniformly random legal index (numpy, from the mask) against three ``"random"``
  opponents (Rust); in self-play (``seat="all"``) every seat takes one that way; every
  RiichiEnv seat is a ``RandomAgent``;
- **one step**: for ``VecEnv`` one decision of the learning seat at one table (its planes
  and mask written, plus every opponent decision up to its next one); for self-play
  ``VecEnv`` one decision of the acting seat at one table (its planes and mask written,
  nothing else played: like for like with RiichiEnv); for RiichiEnv one ``env.step`` call
  (the decisions of the seats asked at that point, one seat on a turn). A one-learner
  ``VecEnv`` step thus stands for more play; so the bench also counts **decisions**
  (every seat's actions: ``VecEnv.decisions``, and the size of each RiichiEnv action
  dict) and **hands**;
- **per core**: one RiichiEnv env is one Python thread; ``VecEnv`` is measured on 1 and
  2 threads, and the ratios use the 1-thread figure;
- **encoding**: ``VecEnv`` always writes the planes and masks; RiichiEnv is measured as it
  steps (no encoding, its fastest) and with ``obs.encode()`` for each seat asked (the
  feature tensor a learner would read). The headline ratios use the first.

Run ``python benches/bench_env.py`` (about 40 s) for a table of all of it from one run,
with the load average (each figure the best of five 1-second windows, which on a shared
machine is the least disturbed one); or ``python -m pytest benches/bench_env.py --benchmark-only``,
where each benchmark records ``steps_per_s``, ``decisions_per_s`` and ``hands_per_s`` in
its ``extra_info``. The machine's other load shows in the 2-thread figures first.
"""

from __future__ import annotations

import os
import time

import numpy as np
import pytest

from majiang.env import VecEnv

TABLES = 256
STEPS = 300


def _random_actions(mask: np.ndarray, noise: np.ndarray) -> np.ndarray:
    # A uniformly random legal index per row: the argmax of masked uniform noise.
    return (noise * mask).argmax(axis=1)


def _make(threads: int, opponents: str) -> VecEnv:
    # ``opponents="selfplay"``: every seat learns (``seat="all"``).
    if opponents == "selfplay":
        return VecEnv("gb", TABLES, seat="all", seed=1, threads=threads)
    return VecEnv("gb", TABLES, opponents=opponents, seed=1, threads=threads)


def vecenv_rates(
    threads: int, opponents: str = "random", windows: int = 5, seconds: float = 1.0
) -> dict:
    """Steps, decisions and hands per second of a ``VecEnv`` of ``TABLES`` gb tables
    (``opponents="selfplay"``: four learning seats): the best of ``windows`` windows of at
    least ``seconds`` each (on a shared machine the best window is the one least
    disturbed)."""
    env = _make(threads, opponents)
    noise = np.random.default_rng(0).random((16, TABLES, 227), dtype=np.float32)
    for k in range(50):  # warm-up: lookup tables, first hands
        env.step(_random_actions(env.mask, noise[k % 16]))
    best: dict = {}
    for _ in range(windows):
        steps = hands = 0
        d0 = env.decisions
        t0 = time.perf_counter()
        while True:
            for k in range(50):
                _, _, _, done = env.step(_random_actions(env.mask, noise[k % 16]))
                hands += int(done.sum())
            steps += 50 * TABLES
            dt = time.perf_counter() - t0
            if dt >= seconds:
                break
        if steps / dt > best.get("steps_per_s", 0):
            best = {
                "steps_per_s": steps / dt,
                "decisions_per_s": (env.decisions - d0) / dt,
                "hands_per_s": hands / dt,
            }
    return best


def riichienv_rates(encode: bool = False, windows: int = 5, seconds: float = 1.0) -> dict:
    """Steps, decisions and hands per second of one RiichiEnv with four random agents
    (whole hands; the best of ``windows`` windows of at least ``seconds``)."""
    import riichienv
    from riichienv.agents import RandomAgent

    env = riichienv.RiichiEnv(seed=1)
    agent = RandomAgent(seed=0)
    best: dict = {}
    for _ in range(windows):
        steps = decisions = hands = 0
        t0 = time.perf_counter()
        while True:
            # The default game mode plays one hand per reset.
            obs = env.reset()
            while not env.done():
                if encode:
                    for o in obs.values():
                        o.encode()
                acts = {p: agent.act(o) for p, o in obs.items()}
                decisions += len(acts)
                obs = env.step(acts)
                steps += 1
            hands += 1
            dt = time.perf_counter() - t0
            if dt >= seconds:
                break
        if steps / dt > best.get("steps_per_s", 0):
            best = {
                "steps_per_s": steps / dt,
                "decisions_per_s": decisions / dt,
                "hands_per_s": hands / dt,
            }
    return best


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("opponents", ["random", "efficiency", "selfplay"])
def test_vecenv_random_actions(benchmark, threads, opponents):
    env = _make(threads, opponents)
    noise = np.random.default_rng(0).random((16, TABLES, 227), dtype=np.float32)
    hands = [0]

    def run():
        for k in range(STEPS):
            _, _, _, done = env.step(_random_actions(env.mask, noise[k % 16]))
            hands[0] += int(done.sum())

    run()  # warm-up (lookup tables, first hands)
    hands[0] = 0
    d0 = env.decisions
    benchmark.pedantic(run, rounds=3)
    if benchmark.stats is None:  # --benchmark-disable: ran once, nothing measured
        return
    mean = benchmark.stats.stats.mean
    benchmark.extra_info["threads"] = threads
    benchmark.extra_info["steps_per_s"] = TABLES * STEPS / mean
    benchmark.extra_info["steps_per_s_per_thread"] = TABLES * STEPS / mean / threads
    benchmark.extra_info["decisions_per_s"] = (env.decisions - d0) / 3 / mean
    benchmark.extra_info["hands_per_s"] = hands[0] / 3 / mean


@pytest.mark.parametrize("encode", [False, True])
def test_riichienv_random_agents(benchmark, encode):
    riichienv = pytest.importorskip("riichienv", reason="riichienv (the bench extra) is needed")
    from riichienv.agents import RandomAgent

    env = riichienv.RiichiEnv(seed=1)
    agent = RandomAgent(seed=0)
    hands = 100
    steps, decisions = [0], [0]

    def play():
        for _ in range(hands):
            obs = env.reset()
            while not env.done():
                if encode:
                    for o in obs.values():
                        o.encode()
                acts = {p: agent.act(o) for p, o in obs.items()}
                decisions[0] += len(acts)
                obs = env.step(acts)
                steps[0] += 1

    play()
    steps[0] = decisions[0] = 0
    benchmark.pedantic(play, rounds=3)
    if benchmark.stats is None:
        return
    mean = benchmark.stats.stats.mean
    benchmark.extra_info["steps_per_s"] = steps[0] / 3 / mean
    benchmark.extra_info["decisions_per_s"] = decisions[0] / 3 / mean
    benchmark.extra_info["hands_per_s"] = hands / mean


def main() -> None:
    load = os.getloadavg()
    rows = {
        "VecEnv, random opponents, 1 thread": vecenv_rates(1),
        "VecEnv, random opponents, 2 threads": vecenv_rates(2),
        "VecEnv, efficiency opponents, 1 thread": vecenv_rates(1, "efficiency"),
        "VecEnv, efficiency opponents, 2 threads": vecenv_rates(2, "efficiency"),
        "VecEnv self-play (4 learners), 1 thread": vecenv_rates(1, "selfplay"),
        "VecEnv self-play (4 learners), 2 threads": vecenv_rates(2, "selfplay"),
    }
    try:
        rows["RiichiEnv, 4 RandomAgent"] = riichienv_rates()
        rows["RiichiEnv, 4 RandomAgent, obs.encode()"] = riichienv_rates(encode=True)
    except ImportError:
        pass
    load_after = os.getloadavg()
    print(f"load average before {load[0]:.2f}, after {load_after[0]:.2f}")
    print("| what (gb, 256 tables) | steps/s | decisions/s | hands/s |")
    print("|---|---:|---:|---:|")
    for name, r in rows.items():
        print(
            f"| {name} | {r['steps_per_s']:,.0f} | {r['decisions_per_s']:,.0f} "
            f"| {r['hands_per_s']:,.0f} |"
        )
    ref = rows.get("RiichiEnv, 4 RandomAgent")
    if ref:
        for name, label in (
            ("VecEnv, random opponents, 1 thread", "VecEnv"),
            ("VecEnv self-play (4 learners), 1 thread", "VecEnv self-play"),
        ):
            one = rows[name]
            for what in ("steps", "decisions", "hands"):
                k = f"{what}_per_s"
                print(f"{label} (1 thread) / RiichiEnv per {what[:-1]}: {one[k] / ref[k]:.1f}x")


if __name__ == "__main__":
    main()
