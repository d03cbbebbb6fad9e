"""The cluster recipe of docs/cluster.md, run at small scale on a local Ray instance: the
page's own scripts (check.py, study.py, read.py), with the sizes and paths made small and
``ray.init(address="auto")`` replaced by a local instance of two CPUs.

The study is run, a worker playing a shard is killed (the run completes), a second study
has its driver killed (``study.py --resume`` plays only what is missing), and read.py
reads the result with numpy alone (majiang cannot be imported) and finds one machine's
figures."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import majiang as mj

pytest.importorskip("ray", reason="Ray is not installed (pip install 'majiang[ray]')")

ROOT = Path(__file__).resolve().parent.parent
PAGE = (ROOT / "docs" / "cluster.md").read_text(encoding="utf-8")
LOCAL = "ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)"
SEED = 20261203


def _script(title: str, tmp_path: Path, **values: str) -> Path:
    """The page's code block titled ``title``, with ``NAME = ...`` lines set to
    ``values`` and the cluster address replaced by a local instance, saved as a file."""
    m = re.search(rf'```python title="{re.escape(title)}"\n(.*?)\n```', PAGE, re.S)
    assert m, f"docs/cluster.md has no block titled {title}"
    code = m.group(1)
    for name, value in values.items():
        code, n = re.subn(rf"^{name} = .*$", f"{name} = {value}", code, flags=re.M)
        assert n == 1, f"{title} sets {name} once"
    if "ray.init(" in code:
        assert code.count('ray.init(address="auto")') == 1, title
        code = code.replace('ray.init(address="auto")', LOCAL)
    path = tmp_path / title
    path.write_text(code, encoding="utf-8")
    return path


def _descendants(pid: int) -> list[int]:
    kids: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            kids.setdefault(ppid, []).append(int(entry))
    out, todo = [], list(kids.get(pid, []))
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(kids.get(p, []))
    return out


def _title(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().split(b"\0")[0].decode(errors="replace")
    except OSError:
        return ""


def _kill_all(pids: list[int]) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _run(*args: str, **kw) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=kw.get("cwd"),
    )


def _finish(proc: subprocess.Popen, timeout: float = 600) -> tuple[str, str]:
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_all([proc.pid, *_descendants(proc.pid)])
        raise
    assert proc.returncode == 0, err[-3000:]
    return out, err


def test_check_py_finds_majiang_and_the_shared_directory_on_every_node(tmp_path):
    check = _script("check.py", tmp_path, SHARED=repr(str(tmp_path)))
    out, _ = _finish(_run(str(check)))
    assert f"majiang {mj.__version__}, 100 hands played, {tmp_path} writable" in out
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".probe")]


def test_the_study_survives_a_killed_worker_and_a_killed_driver(tmp_path):
    # The study, with a worker killed while it plays a shard: Ray plays it again.
    run = tmp_path / "study"
    study = _script("study.py", tmp_path, N_HANDS="16_000", RUN=repr(str(run)), SHARD_HANDS="1_000")
    proc = _run(str(study))
    killed = None
    deadline = time.monotonic() + 300
    while killed is None and proc.poll() is None and time.monotonic() < deadline:
        for pid in _descendants(proc.pid):
            if _title(pid) == "ray::majiang.simulate":
                os.kill(pid, signal.SIGKILL)
                killed = pid
                break
        time.sleep(0.01)
    out, err = _finish(proc)
    assert killed is not None, "no worker was seen playing a shard"
    want = mj.simulate(16_000, bots="efficiency", seed=SEED)
    assert mj.SimResult.load(run).equals(want)
    assert "\nhands            16,000" in "\n" + out  # the summary study.py prints
    assert "simulate: 16,000/16,000 hands (100.0%)" in err

    # A second study whose driver is killed: --resume plays only what is missing.
    run2 = tmp_path / "study2"
    study2 = _script(
        "study.py", tmp_path, N_HANDS="40_000", RUN=repr(str(run2)), SHARD_HANDS="1_000"
    )
    proc = _run(str(study2))
    family: list[int] = []
    deadline = time.monotonic() + 300
    listed = 0
    while proc.poll() is None and time.monotonic() < deadline:
        family = sorted(set(family) | set(_descendants(proc.pid)))
        try:
            m = json.loads((run2 / "manifest.json").read_text())
            listed = len(m["shards"]) + len(m.get("pending", []))
        except (OSError, ValueError):
            listed = 0
        if listed >= 3:
            break
        time.sleep(0.02)
    assert proc.poll() is None, "the study ended before its driver could be killed"
    family = sorted(set(family) | set(_descendants(proc.pid)))
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    _kill_all(family)  # the local Ray instance the killed driver had started
    kept = {p.name: p.stat().st_mtime_ns for p in run2.glob("hands-*.npz")}
    m = json.loads((run2 / "manifest.json").read_text())
    listed_files = {s["file"] for s in m["shards"] + m.get("pending", [])}
    assert len(listed_files) >= 3 and m["hands"] < 40_000
    for name in listed_files:
        os.utime(run2 / name, (1_000_000_000, 1_000_000_000))
    out, err = _finish(_run(str(study2), "--resume"))
    assert mj.SimResult.load(run2).equals(mj.simulate(40_000, bots="efficiency", seed=SEED))
    # The shards listed when the driver died were kept, not played again.
    for name in listed_files:
        assert (run2 / name).stat().st_mtime == 1_000_000_000, name
    assert set(kept) >= listed_files

    # read.py, with numpy alone, finds one machine's figures.
    read = _script("read.py", tmp_path, RUN=f"Path({str(run)!r})")
    blocked = (
        "import sys; sys.modules['majiang'] = None; "
        f"exec(compile(open({str(read)!r}).read(), {str(read)!r}, 'exec'))"
    )
    out, _ = _finish(_run("-c", blocked))
    s = want.summary()
    ids = {names: i for i, names in want.fan_names().items()}
    top = ids[tuple(s["top_fans"][0][:2])]
    assert out.splitlines() == [
        "hands 16000",
        f"win rate {s['win_rate']:.4f}",
        f"self-draw share {s['self_draw_share']:.4f}",
        f"mean fan {s['mean_fan']:.4f}",
        "mean score per seat " + " ".join(f"{x:+.4f}" for x in s["seat_mean_score"]),
        f"most frequent fan id {top}",
    ]
    assert np.isclose(s["mean_fan"], float(out.splitlines()[3].split()[-1]), atol=1e-4)
