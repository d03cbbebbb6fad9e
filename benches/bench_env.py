"""Throughput of the learning environment: ``VecEnv`` stepped with random legal actions
beside RiichiEnv (``riichienv`` on PyPI, the ``bench`` extra) stepping random agents.

What is compared, like with like:

- **random play on every seat**: the learning seat of each ``VecEnv`` table takes a
  uniformly random legal index against three ``"random"`` opponents (Rust); in self-play
  (``seat="all"``) every seat takes one that way; every RiichiEnv seat is a
  ``RandomAgent``. The ``VecEnv`` index comes from numpy (the argmax of uniform noise
  times the mask: what a researcher's random baseline writes, and the headline rows) or
  from ``VecEnv.sample_legal`` (the same distribution drawn in Rust, rows marked so);
- **one step**: for self-play ``VecEnv`` one decision of the acting seat at one table
  (its planes and mask written, nothing else played); for RiichiEnv one ``env.step`` call
  (the decisions of the seats asked at that point, one seat on a turn, 1.003 decisions on
  average). That is the like-for-like pair. A one-learner ``VecEnv`` step is one
  decision of the learning seat plus every opponent decision up to its next one (about
  four in all), so the bench also counts **decisions** (every seat's actions:
  ``VecEnv.decisions``, the size of each RiichiEnv action dict) and **hands**;
- **per core**: one RiichiEnv env is one Python thread; ``VecEnv`` is measured on 1 and
  2 threads, and the ratios use the 1-thread figure;
- **encoding**: ``VecEnv`` always writes the planes and masks; RiichiEnv is measured as it
  steps (no encoding, its fastest) and with ``obs.encode()`` for each seat asked (the
  feature tensor a learner would read). The ratios use the first.

**Paired windows.** On a shared machine the speed of a loop moves by a third from one
second to the next, so two figures measured a minute apart do not make a ratio. The
ratios come from ``PAIRS`` rounds of back-to-back windows of ``WINDOW`` seconds each: in
each round the 1-thread self-play ``VecEnv``, the 1-thread one-learner ``VecEnv`` and
RiichiEnv each run one window (the order reversed every other round, so neither side
always follows the other), and each round gives its own ratios. The table reports the
median rate of each loop, and the median ratio with its quartiles and its lowest and
highest round. A disturbance that lasts a round slows both sides of it, which the ratio
mostly cancels; short windows and many rounds make that likelier and the median steady.

**Which clock.** Each window is timed by the wall clock and by the process's CPU time
(``time.process_time``: all threads). Both are printed; the rates and ratios quoted use
CPU time, which leaves out the time the process waited for a core held by another job:
at load average 8 on the two cores the 1-thread self-play loop ran 465,000 steps/s by CPU
time and 274,000 by the clock, while the median ratio of the rounds moved little (19.8x
against 20.3x: the pairing already cancels most of it). For the 1-thread loops CPU time
is the loop's time (a 1-thread ``VecEnv`` steps its tables on the calling thread, so the
process runs one thread at a time). What no clock removes is other jobs slowing the
caches and memory, hence the spread of the rounds. The 2-thread rows use the wall clock
(two threads' CPU time is not their speed).

**The standard vector API** (``majiang.env.VectorEnv``, a ``gymnasium.vector.VectorEnv``)
is paired in the same rounds with the raw ``VecEnv`` one-learner loop it wraps (same
tables, same opponents, numpy's random legal index from the returned mask), with
``copy=False`` (the env's own arrays) and ``copy=True`` (fresh arrays every step).
**Encoding v2**: each optional output (``features="v2"``, ``candidates=True``,
``oracle=True``, ``history=True``) is timed in paired windows against the plain
one-learner loop; the table gives each one's steps/s over the plain loop's. **The data
path**: IJCAI dumps of engine games read and replayed (``majiang.data.read_ijcai``) and
turned into samples (``majiang.data.samples``), in decisions per second.

Run ``python benches/bench_env.py`` (about two minutes) for the tables, with the load
average before and after; or ``python -m pytest benches/bench_env.py --benchmark-only``, where
each benchmark records ``steps_per_s``, ``decisions_per_s`` and ``hands_per_s`` in its
``extra_info``.
"""

from __future__ import annotations

import os
import statistics
import time

import numpy as np
import pytest

from majiang.env import VecEnv

TABLES = 256
STEPS = 300
#: Rounds of paired windows for the ratios, and the seconds of each window.
PAIRS = 36
WINDOW = 0.33
#: Step calls between clock reads in a ``VecEnv`` window.
BATCH = 20

#: The encoding-v2 outputs timed against the plain loop.
FEATURE_GROUPS = {
    'GB planes (`features="v2"`)': {"features": "v2"},
    "action features (`candidates=True`)": {"candidates": True},
    "oracle view (`oracle=True`)": {"oracle": True},
    "history tokens (`history=True`)": {"history": True},
}


def _random_actions(mask: np.ndarray, noise: np.ndarray) -> np.ndarray:
    # A uniformly random legal index per row: the argmax of masked uniform noise.
    return (noise * mask).argmax(axis=1)


def _make(threads: int, opponents: str) -> VecEnv:
    # ``opponents="selfplay"``: every seat learns (``seat="all"``).
    if opponents == "selfplay":
        return VecEnv("gb", TABLES, seat="all", seed=1, threads=threads)
    return VecEnv("gb", TABLES, opponents=opponents, seed=1, threads=threads)


class Window:
    """What one timed window counted: steps, decisions and hands, wall and CPU seconds."""

    def __init__(self, steps: int, decisions: int, hands: int, wall: float, cpu: float):
        self.steps, self.decisions, self.hands = steps, decisions, hands
        self.wall, self.cpu = wall, cpu

    def rate(self, what: str, clock: str = "cpu") -> float:
        """``what`` (``"steps"``, ``"decisions"`` or ``"hands"``) per second of ``clock``."""
        return getattr(self, what) / getattr(self, clock)


class VecEnvLoop:
    """A ``VecEnv`` of ``TABLES`` gb tables (``opponents="selfplay"``: four learning seats)
    stepped with random legal actions (``agent``: ``"numpy"`` or ``"sample_legal"``)."""

    def __init__(self, threads: int, opponents: str = "random", agent: str = "numpy"):
        self.env = _make(threads, opponents)
        self.agent = agent
        self.noise = np.random.default_rng(0).random((16, TABLES, 227), dtype=np.float32)
        self.k = 0
        for _ in range(50):  # warm-up: lookup tables, first hands
            self.step()

    def step(self) -> np.ndarray:
        """One step of every table; returns ``done``."""
        env = self.env
        self.k += 1
        if self.agent == "numpy":
            actions = _random_actions(env.mask, self.noise[self.k % 16])
        else:
            actions = env.sample_legal()
        return env.step(actions)[3]

    def window(self, seconds: float = 1.0) -> Window:
        """Steps for at least ``seconds`` of wall time."""
        env = self.env
        steps = hands = 0
        d0 = env.decisions
        w0, c0 = time.perf_counter(), time.process_time()
        while True:
            for _ in range(BATCH):
                hands += int(self.step().sum())
            steps += BATCH * TABLES
            wall = time.perf_counter() - w0
            if wall >= seconds:
                break
        cpu = time.process_time() - c0
        return Window(steps, env.decisions - d0, hands, wall, cpu)


class RiichiLoop:
    """One RiichiEnv with four ``RandomAgent``s playing whole hands (``encode``: with
    ``obs.encode()`` for every seat asked)."""

    def __init__(self, encode: bool = False):
        import riichienv
        from riichienv.agents import RandomAgent

        self.env = riichienv.RiichiEnv(seed=1)
        self.agent = RandomAgent(seed=0)
        self.encode = encode
        self.window(0.2)  # warm-up

    def hand(self) -> tuple[int, int]:
        """Plays one hand (the default game mode plays one per reset); returns its steps
        and decisions."""
        env, agent, encode = self.env, self.agent, self.encode
        steps = decisions = 0
        obs = env.reset()
        while not env.done():
            if encode:
                for o in obs.values():
                    o.encode()
            acts = {p: agent.act(o) for p, o in obs.items()}
            decisions += len(acts)
            obs = env.step(acts)
            steps += 1
        return steps, decisions

    def window(self, seconds: float = 1.0) -> Window:
        """Plays whole hands for at least ``seconds`` of wall time."""
        steps = decisions = hands = 0
        w0, c0 = time.perf_counter(), time.process_time()
        while True:
            s, d = self.hand()
            steps, decisions, hands = steps + s, decisions + d, hands + 1
            wall = time.perf_counter() - w0
            if wall >= seconds:
                break
        cpu = time.process_time() - c0
        return Window(steps, decisions, hands, wall, cpu)


class VectorLoop(VecEnvLoop):
    """The standard ``VectorEnv`` (one learner against three ``random`` bots, 1 thread)
    stepped with numpy's random legal index from the mask it returns."""

    def __init__(self, copy: bool):
        from majiang.env import VectorEnv

        self.venv = VectorEnv(TABLES, rules="gb", opponents="random", seed=1, threads=1, copy=copy)
        self.obs, _ = self.venv.reset(seed=1)
        self.env = self.venv._core
        self.noise = np.random.default_rng(0).random((16, TABLES, 227), dtype=np.float32)
        self.k = 0
        for _ in range(50):
            self.step()

    def step(self) -> np.ndarray:
        self.k += 1
        actions = _random_actions(self.obs["action_mask"], self.noise[self.k % 16])
        self.obs, _, term, _, _ = self.venv.step(actions)
        return term


class FeatureLoop(VecEnvLoop):
    """The one-learner loop (three ``opponents`` bots, 1 thread) with an encoding-v2
    output."""

    def __init__(self, opponents: str = "random", **options):
        self.env = VecEnv("gb", TABLES, opponents=opponents, seed=1, threads=1, **options)
        self.agent = "numpy"
        self.noise = np.random.default_rng(0).random((16, TABLES, 227), dtype=np.float32)
        self.k = 0
        for _ in range(50):
            self.step()


def paired(pairs: int = PAIRS, seconds: float = WINDOW, riichi: bool = True) -> dict:
    """``pairs`` rounds of back-to-back windows of the 1-thread self-play and one-learner
    ``VecEnv``, of the standard ``VectorEnv`` over the same one-learner tables and of
    RiichiEnv (order reversed every other round). Returns the windows of each loop by name
    (``"selfplay"``, ``"learner"``, ``"vector"``, ``"vector_copy"``, ``"riichienv"``), in
    round order."""
    loops = {
        "selfplay": VecEnvLoop(1, "selfplay"),
        "learner": VecEnvLoop(1, "random"),
        "vector": VectorLoop(copy=False),
        "vector_copy": VectorLoop(copy=True),
    }
    if riichi:
        loops["riichienv"] = RiichiLoop()
    windows: dict = {name: [] for name in loops}
    for k in range(pairs):
        order = list(loops) if k % 2 == 0 else list(reversed(loops))
        for name in order:
            windows[name].append(loops[name].window(seconds))
    return windows


def ratios(a: list, b: list, what: str, clock: str = "cpu") -> list:
    """Per round, ``a``'s rate of ``what`` over ``b``'s."""
    return [x.rate(what, clock) / y.rate(what, clock) for x, y in zip(a, b, strict=True)]


def median_rates(windows: list, clock: str) -> dict:
    """The median rate of steps, decisions and hands over ``windows``."""
    return {
        what: statistics.median(w.rate(what, clock) for w in windows)
        for what in ("steps", "decisions", "hands")
    }


def _vecenv_benchmark(benchmark, loop: VecEnvLoop, threads: int) -> None:
    # STEPS steps of every table, three timed rounds (the loop is warmed up already).
    hands = [0]
    d0 = loop.env.decisions

    def run():
        for _ in range(STEPS):
            hands[0] += int(loop.step().sum())

    benchmark.pedantic(run, rounds=3)
    if benchmark.stats is None:  # --benchmark-disable: ran once, nothing measured
        return
    mean = benchmark.stats.stats.mean
    benchmark.extra_info["threads"] = threads
    benchmark.extra_info["steps_per_s"] = TABLES * STEPS / mean
    benchmark.extra_info["steps_per_s_per_thread"] = TABLES * STEPS / mean / threads
    benchmark.extra_info["decisions_per_s"] = (loop.env.decisions - d0) / 3 / mean
    benchmark.extra_info["hands_per_s"] = hands[0] / 3 / mean


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("opponents", ["random", "efficiency", "selfplay"])
def test_vecenv_random_actions(benchmark, threads, opponents):
    _vecenv_benchmark(benchmark, VecEnvLoop(threads, opponents), threads)


@pytest.mark.parametrize("threads", [1, 2])
def test_vecenv_selfplay_sample_legal(benchmark, threads):
    _vecenv_benchmark(benchmark, VecEnvLoop(threads, "selfplay", "sample_legal"), threads)


@pytest.mark.parametrize("copy", [False, True])
def test_vector_env_random_actions(benchmark, copy):
    pytest.importorskip("gymnasium", reason="gymnasium (the rl extra) is needed")
    _vecenv_benchmark(benchmark, VectorLoop(copy), 1)


@pytest.mark.parametrize("group", list(FEATURE_GROUPS))
def test_vecenv_encoding_v2_outputs(benchmark, group):
    _vecenv_benchmark(benchmark, FeatureLoop(**FEATURE_GROUPS[group]), 1)


def test_data_path(benchmark):
    r = benchmark.pedantic(lambda: data_rate(60), rounds=1)
    benchmark.extra_info.update(r)


@pytest.mark.parametrize("encode", [False, True])
def test_riichienv_random_agents(benchmark, encode):
    pytest.importorskip("riichienv", reason="riichienv (the bench extra) is needed")
    loop = RiichiLoop(encode)
    hands = 100
    steps, decisions = [0], [0]

    def play():
        for _ in range(hands):
            s, d = loop.hand()
            steps[0] += s
            decisions[0] += d

    benchmark.pedantic(play, rounds=3)
    if benchmark.stats is None:
        return
    mean = benchmark.stats.stats.mean
    benchmark.extra_info["steps_per_s"] = steps[0] / 3 / mean
    benchmark.extra_info["decisions_per_s"] = decisions[0] / 3 / mean
    benchmark.extra_info["hands_per_s"] = hands / mean


def _row(name: str, r: dict) -> str:
    return f"| {name} | {r['steps']:,.0f} | {r['decisions']:,.0f} | {r['hands']:,.0f} |"


def _spread(xs: list) -> str:
    q = statistics.quantiles(xs, n=4)
    return (
        f"{statistics.median(xs):.1f}x (quartiles {q[0]:.1f}-{q[2]:.1f}, "
        f"range {min(xs):.1f}-{max(xs):.1f})"
    )


def feature_costs(pairs: int = 12, seconds: float = WINDOW, opponents: str = "random") -> dict:
    """Per encoding-v2 output, the paired rounds' ratios of the plain one-learner loop's
    steps/s (CPU time) to the loop with that output: its cost as a multiple of a plain
    step (1.0 = free), against three ``opponents`` bots."""
    plain = FeatureLoop(opponents)
    out = {}
    for name, options in FEATURE_GROUPS.items():
        loop = FeatureLoop(opponents, **options)
        rs = []
        for k in range(pairs):
            pair = (plain, loop) if k % 2 == 0 else (loop, plain)
            w = {id(x): x.window(seconds) for x in pair}
            rs.append(w[id(plain)].rate("steps") / w[id(loop)].rate("steps"))
        out[name] = rs
    return out


def data_rate(games: int = 300) -> dict:
    """Decisions per second of the data path on IJCAI dumps of engine games: reading and
    replaying (``read_ijcai``), and making samples (``samples``, v1 planes)."""
    import sys
    import tempfile
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    import datakit
    import majiang as mj
    from majiang import data

    text = "\n".join(
        datakit.ijcai_text(datakit.play(mj.botzone.rules(), s, 0, s % 4), str(s))
        for s in range(games)
    )
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "dump.txt"
        p.write_text(text)
        t = time.perf_counter()
        gs = data.read_ijcai(p)
        read = time.perf_counter() - t
    n = sum(len(g.decisions) for g in gs)
    t = time.perf_counter()
    s = data.samples(gs)
    made = time.perf_counter() - t
    assert len(s) == n
    return {"games": len(gs), "decisions": n, "read": n / read, "samples": n / made}


def main() -> None:
    load = os.getloadavg()
    try:
        windows = paired()
    except ImportError:
        print("riichienv is not installed (pip install 'majiang[bench]'): no ratios to it")
        windows = paired(riichi=False)
    costs = {opp: feature_costs(opponents=opp) for opp in ("random", "efficiency")}
    rate = data_rate()
    others = {}
    for name, threads, opponents, agent in (
        ("self-play, `sample_legal`, 1 thread", 1, "selfplay", "sample_legal"),
        ("self-play, 2 threads", 2, "selfplay", "numpy"),
        ("self-play, `sample_legal`, 2 threads", 2, "selfplay", "sample_legal"),
        ("one learner, 2 threads", 2, "random", "numpy"),
    ):
        loop = VecEnvLoop(threads, opponents, agent)
        others[name] = [loop.window() for _ in range(3)]
    if "riichienv" in windows:
        enc = RiichiLoop(encode=True)
        others["RiichiEnv, `obs.encode()`"] = [enc.window() for _ in range(3)]
    load_after = os.getloadavg()
    print(f"load average before {load[0]:.2f}, after {load_after[0]:.2f}")
    print()
    print(
        "| what (gb, 256 tables; VecEnv: numpy's random index unless said) | steps/s "
        "| decisions/s | hands/s |"
    )
    print("|---|---:|---:|---:|")
    for name, label in (
        ("selfplay", "`VecEnv` self-play, 1 thread"),
        ("learner", "`VecEnv` one learner (3 `random` opponents), 1 thread"),
        ("vector", "`VectorEnv` (gymnasium), same tables, `copy=False`, 1 thread"),
        ("vector_copy", "`VectorEnv` (gymnasium), same tables, `copy=True`, 1 thread"),
        ("riichienv", "RiichiEnv, 4 `RandomAgent`"),
    ):
        if name in windows:
            print(
                _row(f"{label} (CPU time, median of {PAIRS})", median_rates(windows[name], "cpu"))
            )
            print(_row(f"{label} (wall clock)", median_rates(windows[name], "wall")))
    for name, ws in others.items():
        clock = "cpu" if name.startswith("RiichiEnv") or "1 thread" in name else "wall"
        label = name if name.startswith("RiichiEnv") else f"`VecEnv` {name}"
        print(
            _row(
                f"{label} ({'CPU time' if clock == 'cpu' else 'wall clock'}, median of 3)",
                median_rates(ws, clock),
            )
        )
    print()
    print(f"The standard API against the raw path it wraps, median of {PAIRS} paired rounds:")
    print()
    print("| `VectorEnv` / `VecEnv` one learner | steps/s ratio (CPU time) |")
    print("|---|---:|")
    for name in ("vector", "vector_copy"):
        print(f"| {name} | {_spread(ratios(windows[name], windows['learner'], 'steps'))} |")
    print()
    print("Encoding v2: cost of each output as a multiple of a plain step (12 paired rounds):")
    print()
    print("| output | against 3 `random` opponents | against 3 `efficiency` opponents |")
    print("|---|---:|---:|")
    for name in FEATURE_GROUPS:
        print(
            f"| {name} | {_spread(costs['random'][name])} | {_spread(costs['efficiency'][name])} |"
        )
    print()
    print(
        f"Data path ({rate['games']} IJCAI dumps of engine games, {rate['decisions']:,} "
        f"decisions): read and replayed {rate['read']:,.0f} decisions/s; samples "
        f"{rate['samples']:,.0f} decisions/s"
    )
    if "riichienv" not in windows:
        return
    print()
    print(f"Ratios to RiichiEnv, 1 thread, median of {PAIRS} paired rounds:")
    print()
    print("| `VecEnv` / RiichiEnv | clock | per step | per decision | per hand |")
    print("|---|---|---:|---:|---:|")
    for name, label in (("selfplay", "self-play (like for like)"), ("learner", "one learner")):
        for clock in ("cpu", "wall"):
            cells = [
                _spread(ratios(windows[name], windows["riichienv"], what, clock))
                for what in ("steps", "decisions", "hands")
            ]
            print(
                f"| {label} | {'CPU time' if clock == 'cpu' else 'wall'} | "
                + " | ".join(cells)
                + " |"
            )


if __name__ == "__main__":
    main()
