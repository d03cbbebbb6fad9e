"""Ctrl-C during the long calls, as a user meets it: each call runs in a child process
that gets SIGINT in the middle of the work.

Every child would run for minutes (or, for the batch calls, a call several times longer
than the time it takes to stop) if the signal were ignored until the end; the tests check
that it stops with ``KeyboardInterrupt`` (exit status 130 and one line for the command
line), never a ``PanicException``, and that what was finished is kept.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

import majiang as mj

pytestmark = pytest.mark.skipif(os.name != "posix", reason="sends SIGINT")

#: Far longer than any run here takes to stop; reaching it means the signal was ignored.
LIVENESS = 60


def sigint_default() -> None:
    """In the child before it starts: SIGINT does its default, even when the test run was
    started with it ignored (a background job of a script), so that Python in the child
    installs its own handler and the signal these tests send arrives."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start(args: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        args,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).parent,
        preexec_fn=sigint_default,
    )


def _interrupt_python(code: str, delay: float = 0.5) -> tuple[int, str, str, float]:
    """Runs ``code`` in a child; once it prints ``ready``, waits ``delay`` and sends
    SIGINT. Returns the exit status, stdout (after ``ready``), stderr and the seconds from
    the signal to the exit."""
    p = _start([sys.executable, "-c", textwrap.dedent(code)])
    try:
        assert p.stdout is not None
        first = p.stdout.readline()
        assert first.startswith("ready"), (first, p.stderr.read() if p.stderr else "")
        time.sleep(delay)
        sent = time.perf_counter()
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=LIVENESS)
    finally:
        if p.poll() is None:  # a failed test leaves no run behind
            p.kill()
            p.wait()
    return p.returncode, first + out, err, time.perf_counter() - sent


def _clean(err: str) -> None:
    assert "PanicException" not in err and "panicked" not in err, err


def test_simulate_stops_with_the_hands_finished():
    code = """
        import majiang as mj
        mj.simulate(50, bots="random")  # builds the lookup tables
        print("ready", flush=True)
        try:
            mj.simulate(50_000_000 // 4, bots="random", threads=2)
        except KeyboardInterrupt as e:
            part = e.partial
            same = part.equals(mj.simulate(len(part), bots="random"))
            print("interrupted", len(part), same, flush=True)
    """
    rc, out, err, _ = _interrupt_python(code)
    _clean(err)
    assert rc == 0, err
    words = out.split()
    assert words[1] == "interrupted" and words[3] == "True", out
    assert int(words[2]) > 0


def test_simulate_first_call_of_the_process_raises_keyboard_interrupt():
    # No call to majiang before the long one: numpy's API is loaded at import.
    code = """
        import majiang as mj
        print("ready", flush=True)
        mj.simulate(50_000_000 // 4, bots="efficiency")
    """
    rc, _, err, _ = _interrupt_python(code, delay=0.2)
    _clean(err)
    assert rc != 0 and err.rstrip().endswith("KeyboardInterrupt"), err


def test_arena_stops_with_the_games_finished():
    code = """
        import majiang as mj
        mj.simulate(50, bots="random")
        print("ready", flush=True)
        try:
            mj.arena("efficiency,random,random,random", hands=10_000_000, seed=3)
        except KeyboardInterrupt as e:
            part = e.partial
            again = mj.arena("efficiency,random,random,random", hands=len(part), seed=3)
            same = all((getattr(part, c) == getattr(again, c)).all()
                       for c in ("wall", "seats", "winner", "scores"))
            print("interrupted", len(part), same, flush=True)
    """
    rc, out, err, _ = _interrupt_python(code)
    _clean(err)
    assert rc == 0, err
    words = out.split()
    assert words[1] == "interrupted" and words[3] == "True", out


def test_arena_with_a_python_bot_stops_with_the_games_finished():
    """A Python bot at the Rust table: Ctrl-C lands in the bot's Python code or between
    games, and the games finished are the ones the all-Rust arena plays."""
    code = """
        import majiang as mj
        from majiang.bots import EfficiencyBot
        mj.arena([EfficiencyBot(), "random", "random", "random"], hands=8)
        print("ready", flush=True)
        try:
            mj.arena([EfficiencyBot(), "efficiency", "efficiency", "efficiency"],
                     hands=1_000_000, seed=3)
        except KeyboardInterrupt as e:
            part = e.partial
            n = len(part)
            again = mj.arena("efficiency", hands=n, seed=3)
            same = all((getattr(part, c) == getattr(again, c)[:n]).all()
                       for c in ("wall", "seats", "winner", "scores"))
            print("interrupted", n, same, flush=True)
    """
    rc, out, err, _ = _interrupt_python(code)
    _clean(err)
    assert rc == 0, err
    words = out.split()
    assert words[1] == "interrupted" and words[3] == "True", out
    assert int(words[2]) > 0


def test_danger_samples_stop_inside_the_call():
    """The defense's ground truth (up to 20,000 hands a call) stops on Ctrl-C between a
    few hands per thread."""
    code = """
        from majiang import _core
        _core.danger_samples(1, 0, bots="efficiency")
        print("ready", flush=True)
        try:
            _core.danger_samples(20_000, 1, bots="strong", threads=2)
            print("finished", flush=True)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
    """
    # Without the checks the call would run for minutes, past the child's time limit.
    rc, out, err, _ = _interrupt_python(code)
    _clean(err)
    assert rc == 0, err
    assert out.split()[1] == "interrupted", out


def _batch_code(setup: str, call: str) -> str:
    # The child times one whole call, then is interrupted during the next ones.
    return f"""
        import time
        import numpy as np
        import majiang as mj
        {setup}
        t = time.perf_counter()
        {call}
        print("ready", time.perf_counter() - t, flush=True)
        try:
            while True:
                {call}
        except KeyboardInterrupt:
            print("interrupted", flush=True)
    """


_SHANTEN_SETUP = (
    "row = np.zeros(34, np.uint8); np.add.at(row, mj.parse_tiles('1358m2469p17s1234z'), 1); "
    "c = np.tile(row, (3_000_000, 1))"
)
_FAN_SETUP = (
    "h = np.zeros(34, np.uint8); np.add.at(h, mj.parse_tiles('123m456p789s1122z'), 1); "
    "H = np.tile(h, (2_000_000, 1)); W = np.full(len(H), 27, np.uint8)"
)


@pytest.mark.parametrize(
    "setup, call",
    [(_SHANTEN_SETUP, "mj.shanten_batch(c)"), (_FAN_SETUP, "mj.evaluate_fan_batch(H, W)")],
    ids=["shanten_batch", "evaluate_fan_batch"],
)
def test_batch_calls_stop_inside_the_call(setup, call):
    rc, out, err, latency = _interrupt_python(_batch_code(setup, call), delay=0.3)
    _clean(err)
    assert rc == 0, err
    whole = float(out.split()[1])
    assert out.split()[2] == "interrupted"
    # Stopping takes less than one whole call: the call itself looked for the signal.
    assert latency < whole, (latency, whole)


def _wait_for_workers(p: subprocess.Popen[str]) -> None:
    """Waits until the child runs its worker threads (named ``majiang-<i>``)."""
    tasks = Path(f"/proc/{p.pid}/task")
    for _ in range(600):
        if p.poll() is not None:
            break
        names = []
        for t in tasks.glob("*/comm"):
            try:
                names.append(t.read_text())
            except OSError:
                pass
        if any(n.startswith("majiang-") for n in names):
            time.sleep(0.5)
            return
        time.sleep(0.05)
    raise AssertionError("the run did not start")


def _interrupt_cli(args: list[str], shards: Path | None = None) -> tuple[int, str, str]:
    """Runs ``majiang ARGS`` and sends SIGINT once its workers run (and, with ``shards``,
    once that directory holds a shard)."""
    p = _start([sys.executable, "-m", "majiang", *args])
    try:
        _wait_for_workers(p)
        while shards is not None and p.poll() is None:
            try:
                if json.loads((shards / "manifest.json").read_text())["shards"]:
                    break
            except (OSError, ValueError):
                pass
            time.sleep(0.05)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=LIVENESS)
    finally:
        if p.poll() is None:  # a failed test leaves no run behind
            p.kill()
            p.wait()
    return p.returncode, out, err


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs /proc")
def test_cli_simulate_quiet_exits_130_with_one_line():
    rc, _, err = _interrupt_cli(["simulate", "-n", "19000000", "-q", "--bots", "efficiency"])
    _clean(err)
    assert rc == 130
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("majiang simulate: interrupted"), err
    assert "Traceback" not in err


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs /proc")
def test_cli_arena_exits_130_with_one_line():
    rc, _, err = _interrupt_cli(["arena", "--hands", "10000000", "-q"])
    _clean(err)
    assert rc == 130
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("majiang arena: interrupted"), err


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs /proc")
def test_cli_streamed_run_interrupted_then_resumed_equals_one_run(tmp_path):
    out = tmp_path / "run"
    rc, _, err = _interrupt_cli(
        ["simulate", "-n", "19000000", "-q", "--bots", "random", "--seed", "11"]
        + ["--out", str(out), "--shard-hands", "3000"],
        shards=out,
    )
    _clean(err)
    assert rc == 130 and "--resume" in err, err
    part = mj.SimResult.load(out)
    done = len(part)
    assert done > 0
    whole = done + 2500
    resumed = mj.simulate(
        whole, bots="random", seed=11, out=out, resume=True, shard_hands=3000, threads=1
    )
    assert len(resumed) == whole
    assert resumed.equals(mj.simulate(whole, bots="random", seed=11))
    assert not any(p.name.endswith(".tmp") for p in out.iterdir())
    assert np.array_equal(mj.SimResult.load(out).scores, resumed.scores)
