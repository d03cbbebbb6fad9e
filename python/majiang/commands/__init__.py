"""Subcommands of the ``majiang`` command line, one module each.

Every module here defines ``register(subparsers)``, which adds its parser and sets
``func`` to the function that runs it; :mod:`majiang.cli` discovers them.
"""

import argparse

#: What ``--rules`` takes: the three presets, and ``botzone`` (gb on Botzone's table,
#: :func:`majiang.botzone.rules`).
RULE_CHOICES = ("gb", "classic", "huainan", "botzone")


def add_rules_option(parser: argparse.ArgumentParser) -> None:
    """Adds ``--rules`` (one of :data:`RULE_CHOICES`, default gb) to a subcommand."""
    parser.add_argument(
        "--rules",
        default="gb",
        choices=RULE_CHOICES,
        help="rule set (default gb; botzone is gb on Botzone's table: private walls, its "
        "penalties and its calculator, as mj.botzone.rules())",
    )


def rule_set(name: str):
    """The rules a ``--rules`` value names: a preset's name, or Botzone's ``RuleSet``."""
    if name == "botzone":
        from ..botzone import rules

        return rules()
    return name
