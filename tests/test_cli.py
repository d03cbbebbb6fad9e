"""The command line entry point."""

import json
import subprocess
import sys

from majiang.cli import main


def test_help_lists_commands(capsys):
    assert main([]) == 0
    out = capsys.readouterr().out
    assert "usage: majiang" in out


def test_module_entry_point_runs():
    done = subprocess.run(
        [sys.executable, "-m", "majiang", "--help"], capture_output=True, text=True, check=True
    )
    assert "majiang" in done.stdout


def test_rules_botzone_runs_in_every_command_that_takes_rules():
    """``--rules botzone`` is gb on Botzone's table (mj.botzone.rules()) in simulate, arena,
    ladder and play; the runs say they used private walls."""
    from majiang.cli import build_parser

    parser = build_parser()
    for cmd in ("simulate", "arena", "ladder", "play"):
        assert parser.parse_args([cmd, "--rules", "botzone"]).rules == "botzone"
    out = subprocess.run(
        [sys.executable, "-m", "majiang", "simulate", "-n", "8", "--rules", "botzone", "--json"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    summary = json.loads(out)
    assert summary["rules"] == "gb" and summary["rule_options"]["private_walls"] is True
    assert summary["rule_options"]["penalty_mode"] == "botzone"
    text = subprocess.run(
        [sys.executable, "-m", "majiang", "arena", "--rules", "botzone", "--hands", "4", "-q"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "private walls" in text.splitlines()[0]
