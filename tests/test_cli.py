"""The command line entry point."""

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
