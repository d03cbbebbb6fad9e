"""Writes the documentation files that come from running majiang, or checks them.

    python scripts/gen_docs.py                   # write every generated file
    python scripts/gen_docs.py --check           # exit 1 naming each file that differs
    python scripts/gen_docs.py --check simulate-1m

Each file is the exact output of one ``majiang`` command run with the installed package,
so the page that shows it cannot drift from what the engine prints: ``--check`` (run by
``.ci/run``) plays the command again and compares. The runs are seeded, and ``simulate``
gives the same hands whatever the thread count, so the output is the same on every
machine. The screenshots are taken by ``scripts/screenshots.py`` (a browser renders them,
so they are not compared byte for byte).
"""

from __future__ import annotations

import argparse
import difflib
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# name -> (file under the repository, the majiang command that prints it)
GENERATED: dict[str, tuple[str, list[str]]] = {
    "simulate-1m": (
        "docs/simulate-1m.txt",
        ["simulate", "-n", "1000000", "--rules", "gb", "--bots", "efficiency", "--seed", "0", "-q"],
    ),
}


def run(args: list[str]) -> str:
    """The standard output of ``majiang ARGS``, run outside the source tree so that the
    installed package answers."""
    with tempfile.TemporaryDirectory() as cwd:
        proc = subprocess.run(
            [sys.executable, "-m", "majiang", *args],
            cwd=cwd,
            capture_output=True,
            text=True,
            env=dict(os.environ, PYTHONPATH=""),
        )
    if proc.returncode != 0:
        raise SystemExit(f"majiang {' '.join(args)} failed ({proc.returncode}):\n{proc.stderr}")
    return proc.stdout


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--check", action="store_true", help="compare instead of writing")
    p.add_argument("names", nargs="*", help=f"which files: {', '.join(GENERATED)} (default all)")
    args = p.parse_args(argv)
    unknown = [n for n in args.names if n not in GENERATED]
    if unknown:
        p.error(f"unknown generated file {', '.join(unknown)}; known: {', '.join(GENERATED)}")
    names = args.names or list(GENERATED)
    stale = []
    for name in names:
        rel, command = GENERATED[name]
        path = ROOT / rel
        start = time.monotonic()
        text = run(command)
        took = time.monotonic() - start
        if args.check:
            old = path.read_text(encoding="utf-8") if path.exists() else ""
            if old != text:
                stale.append(rel)
                diff = difflib.unified_diff(
                    old.splitlines(),
                    text.splitlines(),
                    rel,
                    "majiang " + " ".join(command),
                    lineterm="",
                    n=1,
                )
                print("\n".join(list(diff)[:40]))
            print(f"{rel}: {'differs' if old != text else 'up to date'} ({took:.0f} s)")
        else:
            path.write_text(text, encoding="utf-8")
            print(f"{rel}: written ({took:.0f} s)")
    if stale:
        print(
            "generated files out of date: "
            + ", ".join(stale)
            + " (python scripts/gen_docs.py writes them again)",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
