"""Writes screenshots of the terminal game as SVG files (``scripts/screenshots.py`` renders
them to the documentation's PNGs).

``python -m majiang.ui.screenshots docs`` plays seeded hands through the app with a
scripted person (see :mod:`majiang.ui.scenarios`) and saves:

- ``table.svg``: the table in the middle of a hand, hints shown;
- ``claim.svg``: the claim prompt when a bot's discard can be punged;
- ``win.svg``: the person's win with its fan table and the settlement.
"""

from __future__ import annotations

import argparse
import asyncio
import pathlib
from collections.abc import Callable
from typing import Any

from ..errors import UsageError
from .app import GameScreen, MajiangApp, Options
from .scenarios import ScriptedPerson, find_seed, keys_for, pung_then_win
from .screens import ResultScreen

__all__ = ["main", "save_screenshots"]

SIZE = (140, 40)


async def _play_to(app: MajiangApp, pilot: Any, stop: Callable[[Any], bool]) -> None:
    person = ScriptedPerson()
    for _ in range(400):
        screen = app.screen
        if stop(screen):
            return
        if isinstance(screen, GameScreen):
            action = person.act(screen.c.observation(), screen.c.rules)
            await pilot.press(*keys_for(screen, action))
        else:
            await pilot.press("enter")
    raise UsageError("the scripted hand never reached the wanted position")


async def _shoot(
    seed: int,
    stop: Callable[[Any], bool],
    path: pathlib.Path,
    hints: bool = False,
    rules: str = "gb",
) -> None:
    app = MajiangApp(Options(rules=rules, seed=seed, level="easy", delay=0, hands=1))
    async with app.run_test(size=SIZE) as pilot:
        await _play_to(app, pilot, stop)
        if hints:
            await pilot.press("t")
        await pilot.pause()
        app.save_screenshot(path.name, str(path.parent))


def save_screenshots(folder: str | pathlib.Path, rules: str = "gb") -> list[pathlib.Path]:
    """Writes ``table.svg``, ``claim.svg`` and ``win.svg`` into `folder`."""
    out = pathlib.Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    seed = find_seed(pung_then_win, rules=rules)
    if seed is None:
        raise UsageError("no seed found where the person pungs and wins")
    turns = {"n": 0}

    def mid_hand(screen: Any) -> bool:
        if isinstance(screen, GameScreen) and screen.mode == "turn":
            turns["n"] += 1
            return turns["n"] > 6
        return False

    def claim(screen: Any) -> bool:
        return (
            isinstance(screen, GameScreen)
            and screen.mode == "claim"
            and any(a.kind == "pung" for a in screen.c.legal_actions())
        )

    paths = [out / "table.svg", out / "claim.svg", out / "win.svg"]
    asyncio.run(_shoot(seed, mid_hand, paths[0], hints=True, rules=rules))
    asyncio.run(_shoot(seed, claim, paths[1], rules=rules))
    asyncio.run(_shoot(seed, lambda s: isinstance(s, ResultScreen), paths[2], rules=rules))
    return paths


def main(argv: list[str] | None = None) -> int:
    """Command line: the folder to write to (default ``docs``)."""
    p = argparse.ArgumentParser(description="Write SVG screenshots of majiang play.")
    p.add_argument("folder", nargs="?", default="docs")
    args = p.parse_args(argv)
    for path in save_screenshots(args.folder):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
