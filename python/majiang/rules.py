"""Rule sets: the presets ``gb``, ``classic`` and ``huainan`` and their options.

``RuleSet("gb")`` is Chinese Official (MCR); every decision docs/rules/ labels G-n, C-n
or D-n is an option with the documented default, so a table that plays differently changes
a setting: ``RuleSet("gb", min_fan=6)``.

Each rule set has its own options: the fan options belong to ``gb`` and ``classic``, the
flow-of-play options to all three (except flower replacement, the fan-based payments and
penalties and declared ready, which huainan does not play), the 宝 options to
``huainan``. ``RuleSet(name).options()`` lists a rule set's options with their values and
``RuleSet.option_table(name)`` what each takes (type, range or choices, default, the
rule sets it belongs to, its documentation). Another rule set's option, an unknown name
or a value outside the option's domain raises :class:`RuleError` naming the option;
values are never coerced (``True`` is not an int, ``8.0`` and ``"8"`` are not 8).

A ``RuleSet`` is immutable; it compares and hashes by name and options, and pickles and
copies as ``RuleSet(name, **options)``, so it can be shipped to worker processes.
"""

from ._core import RuleError, RuleSet

PRESETS = ("gb", "classic", "huainan")

__all__ = ["PRESETS", "RuleError", "RuleSet"]
