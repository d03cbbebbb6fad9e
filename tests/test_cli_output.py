"""The command line as a shell user meets it, through subprocesses: ``--version``, output
piped into a reader that stops early, help text, column alignment, error statuses, and
``majiang replay`` (names, counts, one key a step)."""

from __future__ import annotations

import os
import subprocess
import sys
import unicodedata
from importlib.metadata import version
from pathlib import Path

import pytest

import majiang as mj
from majiang.bots import RandomBot

MJ = [sys.executable, "-m", "majiang"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*MJ, *args], capture_output=True, text=True, timeout=120)


def cells(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def closed_reader(*args: str) -> tuple[int, str]:
    """Runs majiang with its standard output going to a pipe whose reader has already
    gone (as ``majiang ... | head -1`` once head has its line); returns the status and
    what was written to stderr."""
    p = subprocess.Popen([*MJ, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.stdout is not None and p.stderr is not None
    p.stdout.close()
    err = p.stderr.read().decode()
    p.stderr.close()
    return p.wait(timeout=120), err


@pytest.fixture(scope="module")
def person_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A one-hand record of a person's game (seat 0 named ``Person``, as ``majiang play``
    writes it)."""
    rec = mj.Game(rules="gb", bots=[RandomBot(seed=i) for i in range(4)], seed=3, hands=1).play()
    rec.players = ["Person", "RandomBot", "RandomBot", "RandomBot"]
    path = tmp_path_factory.mktemp("rec") / "one.jsonl"
    rec.save(path)
    return path


def test_version() -> None:
    done = run("--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"majiang {version('majiang')}"


def test_a_reader_that_stops_early_gets_no_traceback(person_record: Path) -> None:
    for args in (
        ("shanten", "123m456p789s1122z"),
        ("replay", str(person_record), "--all"),
    ):
        status, err = closed_reader(*args)
        assert "Traceback" not in err and "BrokenPipeError" not in err, err
        assert status == 141


def test_arena_help_prints_a_single_percent_sign() -> None:
    out = run("arena", "--help").stdout
    assert "95% confidence" in out and "%%" not in out


def test_simulate_fan_columns_line_up() -> None:
    out = run("simulate", "-n", "300", "-q", "--seed", "1").stdout
    lines = out.splitlines()
    start = lines.index("most frequent fans (share of wins)")
    rows = lines[start + 1 :]
    assert len(rows) >= 3
    # The share is the last column: it must end in the same terminal cell on every row,
    # and the count column too, whatever the width of the Chinese names.
    ends = {cells(r) for r in rows}
    assert len(ends) == 1, rows
    counts = {cells(r[: r.rindex("  ")]) for r in rows}
    assert len(counts) == 1, rows


def test_fan_and_shanten_report_bad_input_alike() -> None:
    fan = run("fan", "123m456p789s1122z", "--win", "3z")
    shanten = run("shanten", "11111m456p789s122z")
    assert fan.returncode == shanten.returncode == 2
    assert fan.stderr.startswith("majiang fan: error: ")
    assert shanten.stderr.startswith("majiang shanten: error: ")
    assert "Traceback" not in fan.stderr + shanten.stderr


def test_replay_names_the_players_as_the_game_does(person_record: Path) -> None:
    out = run("replay", str(person_record), "--all").stdout
    assert "You" in out and "P1" not in out and "P2" not in out
    assert "1 of 1 hand;" in out and "1 hands" not in out


def test_replay_steps_on_a_single_key(person_record: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    env = dict(os.environ, TERM="xterm", COLUMNS="120", LINES="40")
    child = pexpect.spawn(
        sys.executable,
        [*MJ[1:], "replay", str(person_record), "--text"],
        env=env,
        encoding="utf-8",
    )
    try:
        child.expect("Any key: next step", timeout=60)
        child.expect(r"\r\n  \S", timeout=20)  # the first step is shown
        child.send("x")  # one key, no Enter: the next step
        child.expect(r"\r\n  \S", timeout=20)
        child.send("q")
        child.expect(pexpect.EOF, timeout=20)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0


def test_replay_in_a_terminal_opens_the_table_view(person_record: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    pytest.importorskip("textual")
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="120", LINES="40")
    child = pexpect.spawn(
        sys.executable,
        [*MJ[1:], "replay", str(person_record)],
        env=env,
        encoding="utf-8",
        dimensions=(40, 120),
    )
    try:
        child.expect("step 1/", timeout=60)
        child.send("\x1b[C")  # → : one key, the next step
        child.expect("step 2/", timeout=20)
        child.send("q")
        child.expect(pexpect.EOF, timeout=20)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
