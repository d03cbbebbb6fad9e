"""The ``majiang`` command line: ``majiang --help`` lists the subcommands."""

from __future__ import annotations

import argparse
import importlib
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
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    found = [m.name for m in pkgutil.iter_modules(commands.__path__)]
    names = [n for n in _ORDER if n in found] + sorted(n for n in found if n not in _ORDER)
    for name in names:
        importlib.import_module(f"{commands.__name__}.{name}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Runs the command line; returns the exit status (130 after Ctrl-C, with one line on
    stderr and no traceback)."""
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if not getattr(args, "func", None):
            parser.print_help()
            return 0
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("majiang: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
