"""Rule sets: the presets ``gb``, ``classic`` and ``huainan`` and their options.

``RuleSet("gb")`` is Chinese Official (MCR); every decision docs/rules/ labels G-n, C-n
or D-n is an option with the documented default, so a table that plays differently changes
a setting: ``RuleSet("gb", min_fan=6)``. ``RuleSet(...).options()`` lists them all.
"""

from ._core import RuleError, RuleSet

PRESETS = ("gb", "classic", "huainan")

__all__ = ["PRESETS", "RuleError", "RuleSet"]
