"""The ``majiang`` command line: ``majiang --help`` lists the subcommands."""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys

from . import commands

# The order in which subcommands are listed; modules not named here follow.
_ORDER = ["play", "fan", "shanten", "simulate", "replay", "arena"]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand found in :mod:`majiang.commands`."""
    parser = argparse.ArgumentParser(
        prog="majiang",
        description="Chinese mahjong: play against three AI opponents, score hands, "
        "compute shanten, simulate millions of hands.",
    )
    parser.add_argument("--version", action="version", version=f"majiang {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    found = [m.name for m in pkgutil.iter_modules(commands.__path__)]
    names = [n for n in _ORDER if n in found] + sorted(n for n in found if n not in _ORDER)
    for name in names:
        importlib.import_module(f"{commands.__name__}.{name}").register(sub)
    return parser


def _version() -> str:
    """The installed package's version (``unknown`` when it is not installed)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("majiang")
    except PackageNotFoundError:
        return "unknown"


def _closed_pipe() -> int:
    """The reader of our output went away (``majiang ... | head -1``): stop quietly, as
    command-line tools do, with the status of a process killed by SIGPIPE."""
    # Point stdout at /dev/null so the interpreter's final flush does not fail again.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass
    return 141


def main(argv: list[str] | None = None) -> int:
    """Runs the command line; returns the exit status (130 after Ctrl-C and 141 when the
    reader of the output went away, each with at most one line on stderr and no
    traceback)."""
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if not getattr(args, "func", None):
            parser.print_help()
            return 0
        status = int(args.func(args) or 0)
        sys.stdout.flush()
        return status
    except KeyboardInterrupt:
        print("majiang: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return _closed_pipe()


if __name__ == "__main__":
    sys.exit(main())
