"""Subcommands of the ``majiang`` command line, one module each.

Every module here defines ``register(subparsers)``, which adds its parser and sets
``func`` to the function that runs it; :mod:`majiang.cli` discovers them.
"""

import argparse
import sys

from .._core import MAX_THREADS, RuleSet
from ..errors import InvalidArgumentError
from ..rules import NAMES, PRESETS, entry

#: What ``--rules`` takes: every registered rule set and preset.
RULE_CHOICES = NAMES


def add_rules_option(parser: argparse.ArgumentParser) -> None:
    """Adds ``--rules`` (one of :data:`RULE_CHOICES`, default gb) to a subcommand."""
    presets = "; ".join(f"{p} is {entry(p)['summary']}" for p in PRESETS)
    parser.add_argument(
        "--rules",
        default="gb",
        choices=RULE_CHOICES,
        help=f"rule set (default gb; {presets})",
    )


def fail(command: str, message: str, status: int = 2) -> int:
    """Prints ``majiang COMMAND: MESSAGE`` on stderr, the one line a failing subcommand
    gives, and returns the exit status `status`."""
    print(f"majiang {command}: {message}", file=sys.stderr)
    return status


def rule_set(name: str) -> RuleSet:
    """The rules a ``--rules`` value names (a rule set or a preset)."""
    return RuleSet(name)


def check_run_options(args: argparse.Namespace) -> None:
    """Checks ``--threads`` and ``--seed`` and says what is wrong in the command line's
    terms (the library's own messages name its keyword arguments). Raises
    :class:`~majiang.InvalidArgumentError`."""
    threads = getattr(args, "threads", None)
    if threads is not None and not 1 <= threads <= MAX_THREADS:
        raise InvalidArgumentError(
            f"--threads must be from 1 to {MAX_THREADS}, got {threads} "
            "(leave it out to use every core)"
        )
    seed = getattr(args, "seed", None)
    if seed is not None and not 0 <= seed < 2**64:
        raise InvalidArgumentError(
            f"--seed must be a whole number from 0 to {2**64 - 1:,}, got {seed}"
        )
