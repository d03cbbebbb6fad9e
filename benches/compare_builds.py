"""Two builds of majiang side by side: instructions per hand (callgrind) and wall clock.

Run::

    python benches/compare_builds.py --base /path/to/old-venv/bin/python [--this PYTHON]
        [--bots random,efficiency,strong,expert] [--rules gb,classic,huainan]
        [--rounds 3] [--scale 1.0] [--no-callgrind] [--json out.json]

``--base`` is the interpreter of an environment where a previous build is installed (for
example a ``git worktree`` of an older commit installed with ``pip install .`` into a
temporary venv); ``--this`` defaults to the running interpreter. Both builds play the
same hands: ``simulate(n, rules=..., bots=..., seed=1)`` through the public API only, so
any version with that call can be measured.

**Instructions per hand.** Each build runs under ``valgrind --tool=callgrind`` twice, with
``n1`` and ``n2`` hands, on one thread, counting the instructions executed inside the
function that plays a hand (``HAND_FUNCTION``: the deal, the flow, the policies, the
settlement; the thread pool's waiting is left out, as its spinning varies from run to run);
the difference of the two totals divided by ``n2 - n1`` cancels everything both runs share
(the lookup tables built on first use, a warm-up hand). The count is exact and independent
of the machine's load. As the digests guarantee the same decisions, both builds play the same
hands ``n1 .. n2`` of the seed and the ratio compares the same work.

**Wall clock.** For each combination, rounds of one run per build and thread count
(1 and 2), interleaved (base, this, base, this, ...) so that both see the same load; each
run is a fresh process that warms up (tables built, one short simulation) and then times
one ``simulate`` call. Reported: the best and the median hands per second of wall time and
hands per CPU-second (process time, all threads).

**Paired clock** (``--paired``, two CPUs or more). Runs that follow each other see the
host at different speeds (other tenants, frequency), which moves a ratio of two builds by a
few percent from one round to the next. With ``--paired`` each round starts the two builds
at the same time on one thread each, pinned to two different CPUs (swapped every round),
so that both run under the same conditions; each round gives the ratio of their
hands per CPU-second, and the median of those ratios is reported beside each build's own
median.

Needs valgrind for the instruction counts (``apt-get install valgrind``); with
``--no-callgrind`` only the wall clock is measured.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys

#: Hands of the two callgrind runs (n1, n2) and of one timed run, per bot kind, at
#: ``--scale 1``. Chosen so that each difference is a few hundred million instructions
#: and each timed run about a second on one core.
CALLGRIND_HANDS = {
    "random": (200, 2200),
    "efficiency": (20, 220),
    "strong": (4, 44),
    "strong_lite": (10, 110),
    "expert": (2, 8),
}
TIMED_HANDS = {
    "random": 100_000,
    "efficiency": 8_000,
    "strong": 800,
    "strong_lite": 4_000,
    "expert": 400,
}
SEED = 1
#: The function that plays one hand of ``simulate`` (``majiang::sim::table::Table::play``,
#: ``majiang::sim::Table::play`` in older builds). Callgrind counts inside it only: counted
#: whole, a process also counts the thread pool's idle spinning, which varies from run to
#: run by more than a hand's work.
HAND_FUNCTION = "*Table::play"

# One child process: warm up, then play. Prints one JSON line.
CHILD = r"""
import json, sys, time
import majiang as mj
n, rules, bots = int(sys.argv[1]), sys.argv[2], sys.argv[3]
threads, warm, seed = int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
if warm:
    mj.simulate(warm, rules=rules, bots=bots, seed=987654321, threads=1)
c0, t0 = time.process_time(), time.perf_counter()
r = mj.simulate(n, rules=rules, bots=bots, seed=seed, threads=threads)
t1, c1 = time.perf_counter(), time.process_time()
assert len(r) == n
print(json.dumps({"wall": t1 - t0, "cpu": c1 - c0}))
"""


def _child_args(python: str, n: int, rules: str, bots: str, threads: int, warm: int) -> list[str]:
    return [python, "-c", CHILD, str(n), rules, bots, str(threads), str(warm), str(SEED)]


def callgrind_total(python: str, n: int, rules: str, bots: str) -> int:
    """Instructions callgrind counts for a whole child process playing `n` hands."""
    cmd = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        "--collect-atstart=no",
        f"--toggle-collect={HAND_FUNCTION}",
        *_child_args(python, n, rules, bots, 1, 1),
    ]
    p = subprocess.run(cmd, capture_output=True, text=True, check=False)
    m = re.search(r"Collected\s*:\s*([\d,]+)", p.stderr) or re.search(r"refs:\s*([\d,]+)", p.stderr)
    if p.returncode != 0 or not m:
        raise RuntimeError(f"callgrind run failed ({p.returncode}): {p.stderr[-2000:]}")
    return int(m.group(1).replace(",", ""))


def instructions_per_hand(python: str, rules: str, bots: str, scale: float) -> float:
    n1, n2 = CALLGRIND_HANDS[bots]
    n1, n2 = max(1, round(n1 * scale)), max(2, round(n2 * scale))
    a = callgrind_total(python, n1, rules, bots)
    b = callgrind_total(python, n2, rules, bots)
    return (b - a) / (n2 - n1)


def timed(python: str, n: int, rules: str, bots: str, threads: int) -> dict[str, float]:
    return _finish(_start(python, n, rules, bots, threads), n)


def _start(
    python: str, n: int, rules: str, bots: str, threads: int, cpu: int | None = None
) -> subprocess.Popen[str]:
    """A timed child on `threads` threads, pinned to `cpu` when one is given."""
    pin = None if cpu is None else (lambda: os.sched_setaffinity(0, {cpu}))
    return subprocess.Popen(
        _child_args(python, n, rules, bots, threads, 20),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=pin,
    )


def _finish(p: subprocess.Popen[str], n: int) -> dict[str, float]:
    """The rates of the timed child `p` (which plays `n` hands), once it has ended."""
    out, err = p.communicate()
    if p.returncode != 0:
        raise RuntimeError(f"timed run failed: {err[-2000:]}")
    figures = json.loads(out.strip().splitlines()[-1])
    return {"hands_per_s": n / figures["wall"], "hands_per_cpu_s": n / figures["cpu"]}


def paired(builds: dict[str, str], n: int, rules: str, bots: str, rounds: int) -> dict[str, object]:
    """Rounds of the two builds run at the same time on two CPUs (swapped every round)."""
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        raise SystemExit("--paired needs two CPUs")
    per_round: list[dict[str, dict[str, float]]] = []
    for r in range(rounds):
        first, second = (cpus[0], cpus[1]) if r % 2 == 0 else (cpus[1], cpus[0])
        procs = {
            "base": _start(builds["base"], n, rules, bots, 1, first),
            "this": _start(builds["this"], n, rules, bots, 1, second),
        }
        per_round.append({name: _finish(p, n) for name, p in procs.items()})
    ratios = [x["this"]["hands_per_cpu_s"] / x["base"]["hands_per_cpu_s"] for x in per_round]
    row: dict[str, object] = {"paired_ratios": ratios, "paired_median": statistics.median(ratios)}
    for name in builds:
        xs = [x[name]["hands_per_cpu_s"] for x in per_round]
        row[f"paired_cpu_{name}"] = {"best": max(xs), "median": statistics.median(xs)}
    return row


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", required=True, help="Python of the previous build")
    ap.add_argument("--this", default=sys.executable, help="Python of this build")
    ap.add_argument("--bots", default="random,efficiency,strong,expert")
    ap.add_argument("--rules", default="gb,classic,huainan")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--scale", type=float, default=1.0, help="multiplies every hand count")
    ap.add_argument("--no-callgrind", action="store_true")
    ap.add_argument("--no-wall", action="store_true")
    ap.add_argument(
        "--paired",
        action="store_true",
        help="also time the builds side by side on two CPUs, one thread each",
    )
    ap.add_argument("--json", help="also write the figures to this file")
    a = ap.parse_args(argv)
    builds = {"base": a.base, "this": a.this}
    threads = [int(t) for t in a.threads.split(",")]
    use_cg = not a.no_callgrind
    if use_cg and shutil.which("valgrind") is None:
        print("valgrind not found: instruction counts skipped", file=sys.stderr)
        use_cg = False
    results = []
    for rules in a.rules.split(","):
        for bots in a.bots.split(","):
            row: dict[str, object] = {"rules": rules, "bots": bots}
            if use_cg:
                for name, py in builds.items():
                    row[f"instr_{name}"] = instructions_per_hand(py, rules, bots, a.scale)
            # Hands of one timed run.
            n = max(1, round(TIMED_HANDS[bots] * a.scale))
            if not a.no_wall:
                runs: dict[tuple[str, int], list[dict[str, float]]] = {}
                for _ in range(a.rounds):
                    for t in threads:
                        for name, py in builds.items():
                            runs.setdefault((name, t), []).append(timed(py, n, rules, bots, t))
                for (name, t), rs in runs.items():
                    for key in ("hands_per_s", "hands_per_cpu_s"):
                        xs = [r[key] for r in rs]
                        row[f"{key}_{name}_t{t}"] = {
                            "best": max(xs),
                            "median": statistics.median(xs),
                        }
            if a.paired:
                row.update(paired(builds, n, rules, bots, a.rounds))
            results.append(row)
            _print_row(row, threads)
            sys.stdout.flush()
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1)
    return 0


def _print_row(row: dict[str, object], threads: list[int]) -> None:
    parts = [f"{row['rules']:8s} {row['bots']:11s}"]
    if "instr_base" in row:
        b, t = float(row["instr_base"]), float(row["instr_this"])  # type: ignore[arg-type]
        parts.append(f"instr/hand {b:13,.0f} -> {t:13,.0f} ({b / t:4.2f}x)")
    for th in threads:
        key = f"hands_per_s_base_t{th}"
        if key in row:
            b = row[key]["median"]  # type: ignore[index]
            t = row[f"hands_per_s_this_t{th}"]["median"]  # type: ignore[index]
            cb = row[f"hands_per_cpu_s_base_t{th}"]["median"]  # type: ignore[index]
            ct = row[f"hands_per_cpu_s_this_t{th}"]["median"]  # type: ignore[index]
            parts.append(
                f"{th}T hands/s {b:9,.0f} -> {t:9,.0f} ({t / b:4.2f}x), "
                f"/CPU-s {cb:9,.0f} -> {ct:9,.0f}"
            )
    if "paired_median" in row:
        ratios = sorted(row["paired_ratios"])  # type: ignore[arg-type]
        cb = row["paired_cpu_base"]["median"]  # type: ignore[index]
        ct = row["paired_cpu_this"]["median"]  # type: ignore[index]
        parts.append(
            f"paired 1T /CPU-s {cb:9,.0f} -> {ct:9,.0f}, ratio median "
            f"{row['paired_median']:4.2f}x (rounds {ratios[0]:4.2f}x to {ratios[-1]:4.2f}x)"
        )
    print(" | ".join(parts))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    raise SystemExit(main())
