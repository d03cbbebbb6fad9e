"""The review on a terminal screen: next/previous-mistake keys, reached from the final
standings of majiang play."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

import majiang as mj  # noqa: E402
from majiang.bots import EfficiencyBot, StrongBot  # noqa: E402
from majiang.coach.review import Review, load_game, review  # noqa: E402
from majiang.ui import MajiangApp, Options  # noqa: E402
from majiang.ui.app import GameScreen  # noqa: E402
from majiang.ui.review import ReviewApp, ReviewScreen  # noqa: E402
from majiang.ui.scenarios import ScriptedPerson, keys_for  # noqa: E402
from majiang.ui.screens import ResultScreen, StandingsScreen  # noqa: E402


def text_of(renderable: object) -> str:
    from rich.console import Console

    console = Console(width=120, file=io.StringIO(), record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> Review:
    path = tmp_path_factory.mktemp("ui-review") / "gb.jsonl"
    bots = [EfficiencyBot(seed=1), StrongBot(seed=2), StrongBot(seed=3), StrongBot(seed=4)]
    mj.Game("gb", bots, seed=11, hands=2, record_path=path).play()
    return review(load_game(path), 0, samples=2, playout="efficiency")


def test_the_mistake_keys_walk_the_mistakes_most_points_first(reviewed: Review) -> None:
    mistakes = reviewed.mistakes()
    assert len(mistakes) >= 2

    async def go() -> None:
        app = ReviewApp(reviewed)
        async with app.run_test(size=(110, 40)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReviewScreen)
            assert screen.current == reviewed.decisions[0]
            seen = []
            for _ in mistakes:
                await pilot.press("n")
                seen.append(screen.current)
            assert seen == mistakes
            await pilot.press("n")
            assert screen.current == mistakes[0]
            await pilot.press("p")
            assert screen.current == mistakes[-1]
            await pilot.press("left_square_bracket")
            assert screen.current == mistakes[-2]
            await pilot.press("right")
            i = reviewed.decisions.index(mistakes[-2])
            assert screen.current == reviewed.decisions[(i + 1) % len(reviewed.decisions)]
            text = text_of(screen.query_one("#r-decision").content)
            assert "You played" in text and "95% interval" in text
            head = text_of(screen.query_one("#r-head").content)
            assert "agreement" in head
            await pilot.press("escape")

    asyncio.run(go())


def test_the_final_standings_open_the_review_of_the_match() -> None:
    async def go() -> None:
        opts = Options(seed=5, level="easy", delay=0, hands=1)
        app = MajiangApp(opts)
        async with app.run_test(size=(110, 36)) as pilot:
            person = ScriptedPerson()
            for _ in range(400):
                screen = app.screen
                if isinstance(screen, StandingsScreen):
                    break
                if isinstance(screen, GameScreen):
                    action = person.act(screen.c.observation(), screen.c.rules)
                    await pilot.press(*keys_for(screen, action))
                elif isinstance(screen, ResultScreen):
                    await pilot.press("enter")
            assert isinstance(app.screen, StandingsScreen)
            await pilot.press("v")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReviewScreen)
            for _ in range(600):
                if screen.review is not None or screen.error is not None:
                    break
                await asyncio.sleep(0.05)
            assert screen.error is None and screen.review is not None
            rv: Any = screen.review
            assert rv.seat == 0 and len(rv.hands) == 1
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, StandingsScreen)

    asyncio.run(go())


def test_review_screen_cli_refuses_json_with_screen(tmp_path: Path) -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "majiang", "review", str(tmp_path / "x"), "--screen", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and "choose one" in done.stderr
