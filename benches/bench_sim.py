"""Throughput of simulate (random and efficiency bots, 1 and 2 threads) and of a
Python-driven match loop against RiichiEnv's environment with its random agent.

Run with ``python -m pytest benches/bench_sim.py --benchmark-only``; each benchmark
records ``hands_per_s`` in its ``extra_info``. Both table engines build lookup tables on
first use, so everything is warmed up before timing.
"""

import pytest

import majiang as mj

SIM_HANDS = {"random": 20_000, "efficiency": 4_000}


def _rate(benchmark, hands: int) -> None:
    """Records hands per second (nothing is timed under ``--benchmark-disable``)."""
    if benchmark.stats is not None:
        benchmark.extra_info["hands_per_s"] = hands / benchmark.stats.stats.mean


@pytest.fixture(scope="module", autouse=True)
def warm():
    mj.simulate(50, bots="efficiency")


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("bots", ["random", "efficiency"])
def test_simulate(benchmark, bots, threads):
    n = SIM_HANDS[bots]
    result = benchmark.pedantic(
        mj.simulate, args=(n,), kwargs={"bots": bots, "threads": threads}, rounds=3
    )
    assert len(result) == n
    benchmark.extra_info["hands"] = n
    _rate(benchmark, n)


GAME_HANDS = 200


def _majiang_game():
    bots = [mj.bots.RandomBot(seed=i) for i in range(4)]
    return mj.Game("gb", bots=bots, seed=1, hands=GAME_HANDS).play()


def test_python_game_random_bots(benchmark):
    rec = benchmark.pedantic(_majiang_game, rounds=3)
    assert len(rec.hands) == GAME_HANDS
    _rate(benchmark, GAME_HANDS)


def test_riichienv_random_agents(benchmark):
    riichienv = pytest.importorskip("riichienv", reason="riichienv (the bench extra) is needed")
    from riichienv.agents import RandomAgent

    env = riichienv.RiichiEnv(seed=1)
    agent = RandomAgent(seed=0)

    def play():
        # The default game mode plays one hand per reset.
        for _ in range(GAME_HANDS):
            obs = env.reset()
            while not env.done():
                obs = env.step({p: agent.act(o) for p, o in obs.items()})

    play()
    benchmark.pedantic(play, rounds=3)
    _rate(benchmark, GAME_HANDS)
