"""Streamed runs: ``simulate(..., out=DIR)`` writes shards as it goes, with memory that does
not grow with the number of hands, resumes to the same arrays as one run, and leaves a
directory that plain numpy and json can read."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import majiang as mj

MEMORY_CHILD = """
    import re, sys, tempfile, threading, time
    import majiang as mj

    def rss_kb():
        text = open("/proc/self/status").read()
        return int(re.search(r"VmRSS:\\s+(\\d+)", text).group(1))

    out = tempfile.mkdtemp()
    mj.simulate(200, bots="random", out=out + "/warm")  # lookup tables, first shard
    base = rss_kb()
    peak = [base]
    running = [True]

    def watch():
        while running[0]:
            peak[0] = max(peak[0], rss_kb())
            time.sleep(0.01)

    t = threading.Thread(target=watch)
    t.start()
    n = int(sys.argv[1])
    if sys.argv[2] == "out":
        r = mj.simulate(n, bots="random", threads=2, out=out + "/run", shard_hands=10_000)
    else:
        r = mj.simulate(n, bots="random", threads=2)
    peak[0] = max(peak[0], rss_kb())
    running[0] = False
    t.join()
    print(len(r), peak[0] - base)
"""


def _rss_growth_kb(n: int, mode: str) -> int:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(MEMORY_CHILD), str(n), mode],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    hands, growth = done.stdout.split()
    assert int(hands) == n
    return int(growth)


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_a_streamed_run_keeps_memory_flat():
    # 300,000 hands kept in memory take 12 MB of arrays (more while they grow); streamed
    # in shards of 10,000 they never hold more than a few shards' worth.
    growth = _rss_growth_kb(300_000, "out")
    assert growth < 8 * 1024, f"RSS grew by {growth} kB"


def test_streamed_equals_in_memory_and_reads_without_majiang(tmp_path):
    rules = mj.RuleSet("classic", min_fan=6)
    want = mj.simulate(2_500, rules=rules, bots="random,efficiency,random,efficiency", seed=4)
    out = tmp_path / "run"
    got = mj.simulate(
        2_500,
        rules=rules,
        bots="random,efficiency,random,efficiency",
        seed=4,
        out=out,
        shard_hands=1_000,
    )
    assert got.equals(want) and len(got) == 2_500
    assert got.rule_set() == rules and got.rule_options["min_fan"] == 6
    assert got.summary() == want.summary()
    # The layout, with numpy and json only.
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["format"] == "majiang-simulation-shards" and manifest["version"] == 2
    # The manifest's own digest: SHA-256 of its other fields as sorted, compact JSON.
    body = {k: v for k, v in manifest.items() if k != "digest"}
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert manifest["digest"] == "sha256:" + hashlib.sha256(canonical.encode()).hexdigest()
    assert manifest["rules"] == "classic" and manifest["rule_options"]["min_fan"] == 6
    assert manifest["seed"] == 4 and manifest["hands"] == 2_500
    assert [(s["start"], s["hands"]) for s in manifest["shards"]] == [
        (0, 1_000),
        (1_000, 1_000),
        (2_000, 500),
    ]
    winners = []
    for s in manifest["shards"]:
        data = (out / s["file"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == s["sha256"]
        with np.load(out / s["file"]) as z:
            assert set(z.files) == set(manifest["columns"])
            winners.append(z["winner"])
    assert np.array_equal(np.concatenate(winners), want.winner)


def test_resume_continues_to_the_same_arrays(tmp_path):
    out = tmp_path / "run"
    first = mj.simulate(1_300, bots="random", seed=9, out=out, shard_hands=500)
    assert len(first) == 1_300
    again = mj.simulate(3_000, bots="random", seed=9, out=out, shard_hands=700, resume=True)
    assert again.equals(mj.simulate(3_000, bots="random", seed=9))
    # Resuming a finished run plays nothing more.
    same = mj.simulate(3_000, bots="random", seed=9, out=out, resume=True)
    assert same.equals(again)
    # resume=True on a new directory starts the run.
    fresh = mj.simulate(100, bots="random", seed=9, out=tmp_path / "new", resume=True)
    assert fresh.equals(mj.simulate(100, bots="random", seed=9))


@pytest.mark.parametrize(
    "change, word",
    [
        ({"seed": 10}, "seed"),
        ({"bots": "efficiency"}, "bots"),
        ({"rules": "classic"}, "rules"),
        ({"rules": mj.RuleSet("gb", min_fan=6)}, "rule_options"),
    ],
)
def test_resume_refuses_another_run(tmp_path, change, word):
    out = tmp_path / "run"
    mj.simulate(200, bots="random", seed=9, out=out)
    args = {"bots": "random", "seed": 9, **change}
    with pytest.raises(mj.ResultFileError, match=word):
        mj.simulate(400, out=out, resume=True, **args)
    assert len(mj.SimResult.load(out)) == 200


def test_out_is_checked_before_the_run(tmp_path):
    out = tmp_path / "run"
    mj.simulate(100, bots="random", out=out)
    with pytest.raises(mj.ResultFileError, match="resume"):
        mj.simulate(100, bots="random", out=out)
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "notes.txt").write_text("mine")
    with pytest.raises(mj.ResultFileError, match="not empty"):
        mj.simulate(100, out=busy)
    a_file = tmp_path / "f"
    a_file.write_text("x")
    with pytest.raises(mj.ResultFileError, match="is a file"):
        mj.simulate(100, out=a_file)
    with pytest.raises(mj.ResultFileError, match="does not exist"):
        mj.simulate(100, out=tmp_path / "missing" / "run")
    with pytest.raises(mj.ResultFileError, match="more than"):
        mj.simulate(50, bots="random", out=out, resume=True)
    with pytest.raises(ValueError, match="out="):
        mj.simulate(10, resume=True)


def test_a_failing_writer_keeps_the_shards_written(tmp_path, monkeypatch):
    from majiang import sim

    out = tmp_path / "run"
    calls = []
    real = sim._ShardWriter.write

    def write(self, first, arrays):
        calls.append(first)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        real(self, first, arrays)

    monkeypatch.setattr(sim._ShardWriter, "write", write)
    with pytest.raises(OSError, match="No space"):
        mj.simulate(1_000, bots="random", seed=2, out=out, shard_hands=300)
    assert calls == [0, 300, 600]
    monkeypatch.undo()
    part = mj.SimResult.load(out)
    assert len(part) == 600
    assert part.equals(mj.simulate(600, bots="random", seed=2))
    done = mj.simulate(1_000, bots="random", seed=2, out=out, shard_hands=300, resume=True)
    assert done.equals(mj.simulate(1_000, bots="random", seed=2))


def test_cli_streams_and_resumes(tmp_path, capsys):
    from majiang.cli import main

    out = tmp_path / "run"
    args = ["simulate", "-q", "--bots", "random", "--seed", "3", "--out", str(out)]
    assert main([*args, "-n", "700", "--shard-hands", "300"]) == 0
    assert f"shards saved to {out}" in capsys.readouterr().out
    assert main([*args, "-n", "900"]) == 2
    assert "--resume" in capsys.readouterr().err
    assert main([*args, "-n", "900", "--resume"]) == 0
    assert mj.SimResult.load(out).equals(mj.simulate(900, bots="random", seed=3))
    assert main(["simulate", "-q", "-n", "10", "--out", str(tmp_path / "x.txt")]) == 2
    assert ".npz file" in capsys.readouterr().err
    assert not (tmp_path / "x.txt").exists() and not (tmp_path / "x.txt.npz").exists()
    assert main(["simulate", "-q", "-n", "10", "--out", str(tmp_path / "no" / "x.npz")]) == 2
    assert "does not exist" in capsys.readouterr().err
    npz = tmp_path / "x.npz"
    assert main(["simulate", "-q", "-n", "10", "--out", str(npz), "--resume"]) == 2
    assert main(["simulate", "-q", "-n", "10", "--out", str(npz)]) == 0
    assert f"arrays saved to {npz}" in capsys.readouterr().out
    assert mj.SimResult.load(npz).equals(mj.simulate(10))


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signal masks")
def test_ctrl_c_while_a_shard_is_written_keeps_the_shard_listed(tmp_path, monkeypatch):
    from majiang import sim

    out = tmp_path / "run"
    real = sim._atomic_write
    sent = []

    def write(path, data):
        # Ctrl-C between the shard file and the manifest that lists it.
        if path.name.startswith("hands-") and not sent:
            sent.append(path.name)
            os.kill(os.getpid(), signal.SIGINT)
        real(path, data)

    monkeypatch.setattr(sim, "_atomic_write", write)
    # Python's own Ctrl-C handler, whatever the process inherited (a shell's background
    # job starts with SIGINT ignored, and then Ctrl-C rightly does nothing).
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt) as e:
            mj.simulate(100_000, bots="random", seed=6, out=out, shard_hands=300)
    finally:
        signal.signal(signal.SIGINT, inherited)
    monkeypatch.undo()
    assert sent == ["hands-000000000000.npz"]
    part = e.value.partial
    assert len(part) == 300 == len(mj.SimResult.load(out))
    assert part.equals(mj.simulate(300, bots="random", seed=6))
