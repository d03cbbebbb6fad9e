"""Rule sets and presets: the engine's registry, as Python sees it.

Every rule set is one entry of the Rust registry (``rust/rules/registry.rs``); a preset is
a named bundle of options over a rule set (``botzone`` is gb on Botzone's table). Every
name here works wherever a rule set is accepted: ``RuleSet("botzone")``,
``simulate(..., rules="huainan")``, ``majiang play --rules classic``. The command line's
choices, the game's labels and the scoring units come from these tables; nothing else in
the package lists the rule sets.

``RuleSet(name)`` is a rule set with its options (``RuleSet("gb", min_fan=6)``): every
decision docs/rules/ labels G-n, C-n or D-n is an option with the documented default.
A rule set has exactly the options of its option groups; ``RuleSet(name).options()``
lists them and ``RuleSet.option_table(name)`` says what each takes. Another rule set's
option, an unknown name or a value outside the option's domain raises
:class:`~majiang.RuleError` naming the option; values are never coerced.
"""

from __future__ import annotations

from typing import Any

from ._core import RuleSet, presets, rule_sets

__all__ = ["NAMES", "PRESETS", "RULE_SETS", "RuleSet", "entry", "title", "unit"]

_RULE_SETS: dict[str, dict[str, Any]] = {d["name"]: d for d in rule_sets()}
_PRESETS: dict[str, dict[str, Any]] = {p["name"]: p for p in presets()}

#: The registered rule sets, in the documentation's order.
RULE_SETS: tuple[str, ...] = tuple(_RULE_SETS)
#: The registered presets.
PRESETS: tuple[str, ...] = tuple(_PRESETS)
#: Every name a rule set can be chosen by: the rule sets, then the presets.
NAMES: tuple[str, ...] = RULE_SETS + PRESETS


def entry(name: str) -> dict[str, Any]:
    """The registry's entry for a rule set or preset name (a copy): a rule set's has
    ``name``, ``aliases``, ``title``, ``summary``, ``docs``, ``unit``, ``engine``,
    ``groups``, ``forms`` and ``has_wilds``; a preset's ``name``, ``rule_set``, ``title``,
    ``summary``, ``docs`` and ``options``. Raises :class:`~majiang.RuleError` for another
    name."""
    for table in (_RULE_SETS, _PRESETS):
        if name in table:
            return dict(table[name])
    for d in _RULE_SETS.values():
        if name in d["aliases"]:
            return dict(d)
    RuleSet(name)  # raises RuleError naming every choice
    raise AssertionError(name)  # pragma: no cover - RuleSet accepted a name not listed


def _rule_set(rules: str | RuleSet) -> RuleSet:
    return rules if isinstance(rules, RuleSet) else RuleSet(rules)


def unit(rules: str | RuleSet) -> str:
    """What a win's value counts under ``rules``: ``"fan"`` or ``"points"``."""
    return _rule_set(rules).unit


def title(rules: str | RuleSet) -> str:
    """A label for people: the preset's title, else the rule set's."""
    return _rule_set(rules).title
