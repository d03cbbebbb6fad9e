"""Subcommands of the ``majiang`` command line, one module each.

Every module here defines ``register(subparsers)``, which adds its parser and sets
``func`` to the function that runs it; :mod:`majiang.cli` discovers them.
"""

import argparse

from .._core import RuleSet
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


def rule_set(name: str) -> RuleSet:
    """The rules a ``--rules`` value names (a rule set or a preset)."""
    return RuleSet(name)
