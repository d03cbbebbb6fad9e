"""The command line speaks in its own terms: options as they are typed (``--threads``,
``-n``), never the library's keyword arguments (``out=PATH``, ``n_hands=``), Python
literals (``or None``, ``2**64``); and ``majiang play --help`` says where the person sits
under every rule set, as the registry seats the first dealer."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

import majiang as mj

PYTHON_TERMS = re.compile(r"=PATH|or None|\*\*|n_hands|shard_hands|\bout=|threads=")


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["simulate", "-n", "99999999999"], "-n 99,999,999,999"),
        (["simulate", "-n", "10", "--threads", "0"], "--threads"),
        (["simulate", "-n", "10", "--seed", "-1"], "--seed"),
        (["simulate", "-n", "10", "--shard-hands", "0"], "--shard-hands"),
        (["simulate", "-n", "-3"], "-n"),
        (["arena", "--hands", "2", "--seed", "-5"], "--seed"),
        (["arena", "--hands", "2", "--threads", "0"], "--threads"),
        (["explain", "--seed", "-1"], "--seed"),
        (["play", "--seed", "-1"], "--seed"),
    ],
)
def test_bad_options_are_named_as_typed(args: list[str], option: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "majiang", *args], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 2, proc.stderr
    line = proc.stderr.strip()
    assert line.count("\n") == 0 and option in line, line
    assert not PYTHON_TERMS.search(line), line
    assert "Traceback" not in line


def test_play_help_seats_the_person_as_each_rule_set_does() -> None:
    from majiang.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    play = sub.choices["play"]  # type: ignore[attr-defined]
    text = " ".join(play.format_help().split())
    assert "you sit East" not in text
    east = [n for n in mj.rules.NAMES if mj.RuleSet(n).options()["first_dealer"] == "east"]
    drawn = [n for n in mj.rules.NAMES if n not in east]
    assert east and drawn  # gb seats the person East; classic and huainan draw
    assert f"under {', '.join(east)} you are East" in text
    assert f"{', '.join(drawn)} draw the first dealer" in text
    assert "classic" in drawn and "huainan" in drawn
