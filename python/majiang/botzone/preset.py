"""The rule set of Botzone's table, :func:`rules` (re-exported as
``majiang.botzone.rules``): a module of its own so that every part of
:mod:`majiang.botzone` can use it without importing the package.
"""

from __future__ import annotations

from .._core import RuleSet

__all__ = ["rules"]


def rules(*, flowers: bool = False, exact_scores: bool = True) -> RuleSet:
    """The ``gb`` rule set on Botzone's table (docs/rules/botzone.md): private walls
    (B-1), no flowers unless ``flowers`` (B-2), one hand per match (B-3), a false win
    ending the hand with the judge's penalty (B-4) and, with ``exact_scores``, the 2020
    calculator's wait fans (B-5). With the defaults this is ``RuleSet("botzone")``, the
    registry's preset."""
    return RuleSet("botzone", flowers=flowers, wait_fans_on_knitted_tile=not exact_scores)
