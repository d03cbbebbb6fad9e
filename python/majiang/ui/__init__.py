"""The terminal game (``majiang play``): one person against three bots, built on Textual.

``run(rules="gb", seed=None, level="normal", ascii=False, record=None, delay=0.4,
explain=False, hints=False, colours="full", data_dir=None)`` plays a whole match in the
terminal (``hints``: the hints show from the start; ``explain``: with the advisor's
reasons; ``colours``: ``full``, ``basic`` or ``none``; ``data_dir``: where the settings
and statistics are kept). The pieces are usable on their own:

- :mod:`majiang.ui.controller`: the match, the round and the bots, with no display;
- :mod:`majiang.ui.app`: the Textual app (:class:`MajiangApp`) and the table screen;
- :mod:`majiang.ui.screens`: the result of a hand, the final standings, quitting;
- :mod:`majiang.ui.widgets` and :mod:`majiang.ui.tiles`: tiles, the hand, seat panels;
- :mod:`majiang.ui.hints`: shanten, useful tiles, the level's bot's advice and its
  reasons, fans, why a complete hand is offered no win;
- :mod:`majiang.ui.help` and :mod:`majiang.ui.settings`: the help screen (keys, rules,
  fans, statistics) and the settings screen;
- :mod:`majiang.ui.scenarios`: deterministic searches for seeds where a pung or a win is
  offered to the person (used by the tests and the screenshots).

Textual is an optional dependency (``pip install "majiang[ui]"``); importing this package
without it raises ``ImportError``.
"""

from __future__ import annotations

from .._core import RuleSet
from .app import GameScreen, MajiangApp, Options
from .controller import LEVELS, PERSON, Controller

__all__ = ["LEVELS", "PERSON", "Controller", "GameScreen", "MajiangApp", "Options", "run"]


def run(
    rules: str | RuleSet = "gb",
    seed: int | None = None,
    level: str = "normal",
    ascii: bool = False,
    record: str | None = None,
    delay: float = 0.4,
    hands: int | None = None,
    explain: bool = False,
    hints: bool = False,
    colours: str = "full",
    data_dir: str | None = None,
) -> MajiangApp:
    """Plays a match in the terminal; returns the app when the person leaves."""
    app = MajiangApp(
        Options(
            rules,
            seed,
            level,
            ascii,
            record,
            delay,
            hands,
            explain,
            hints=hints,
            colours=colours,
            data_dir=data_dir,
        )
    )
    try:
        app.run()
    finally:
        # The trailer: a complete match, or the finished hands of one left early.
        app.controller.close_record()
    return app
