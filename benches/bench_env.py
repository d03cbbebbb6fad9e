"""Throughput of the learning environment: ``VecEnv`` stepped with random legal actions
(encoding and masks on, random opponents, 1 and 2 threads) beside RiichiEnv's
environment stepping random agents in the same run.

Run with ``python -m pytest benches/bench_env.py --benchmark-only``; each benchmark records
``steps_per_s`` (environment steps: one learning-seat decision per table for VecEnv, one
``env.step`` call for RiichiEnv), ``hands_per_s`` and, for VecEnv, ``steps_per_s_per_thread``
in its ``extra_info``. A VecEnv step also plays every opponent decision up to the learning
seat's next one, so hands per second is the like-for-like comparison across engines.
"""

import numpy as np
import pytest

from majiang.env import VecEnv

TABLES = 256
STEPS = 300


def _random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    # A uniformly random legal index per row: the argmax of masked uniform noise.
    return (rng.random(mask.shape, dtype=np.float32) * mask).argmax(axis=1)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("opponents", ["random", "efficiency"])
def test_vecenv_random_actions(benchmark, threads, opponents):
    env = VecEnv("gb", TABLES, opponents=opponents, seed=1, threads=threads)
    rng = np.random.default_rng(0)
    hands = [0]

    def run():
        for _ in range(STEPS):
            _, _, _, done = env.step(_random_actions(env.mask, rng))
            hands[0] += int(done.sum())

    run()  # warm-up (lookup tables, first hands)
    hands[0] = 0
    benchmark.pedantic(run, rounds=3)
    per_round = TABLES * STEPS / benchmark.stats.stats.mean
    benchmark.extra_info["threads"] = threads
    benchmark.extra_info["steps_per_s"] = per_round
    benchmark.extra_info["steps_per_s_per_thread"] = per_round / threads
    benchmark.extra_info["hands_per_s"] = hands[0] / 3 / benchmark.stats.stats.mean


def test_riichienv_random_agents(benchmark):
    riichienv = pytest.importorskip("riichienv", reason="riichienv (the bench extra) is needed")
    from riichienv.agents import RandomAgent

    env = riichienv.RiichiEnv(seed=1)
    agent = RandomAgent(seed=0)
    hands = 100
    steps = [0]

    def play():
        # The default game mode plays one hand per reset.
        for _ in range(hands):
            obs = env.reset()
            while not env.done():
                obs = env.step({p: agent.act(o) for p, o in obs.items()})
                steps[0] += 1

    play()
    steps[0] = 0
    benchmark.pedantic(play, rounds=3)
    benchmark.extra_info["steps_per_s"] = steps[0] / 3 / benchmark.stats.stats.mean
    benchmark.extra_info["hands_per_s"] = hands / benchmark.stats.stats.mean
