"""``majiang replay`` in the table view (Textual's Pilot): single keys step forward and
back through every event, every hand is open, the result and fan table show at the end
of a hand, and the table agrees with the engine."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import pytest

pytest.importorskip("textual")

from rich.console import Console  # noqa: E402

import majiang as mj  # noqa: E402
from majiang.bots import EfficiencyBot  # noqa: E402
from majiang.record import replay_hand  # noqa: E402
from majiang.ui.replay import ReplayApp, hand_steps, seat_names  # noqa: E402
from majiang.ui.widgets import SeatPanel  # noqa: E402


def text_of(widget: Any) -> str:
    console = Console(width=160, file=io.StringIO(), record=True, color_system=None)
    console.print(widget.content)
    return console.export_text()


@pytest.fixture(scope="module")
def record() -> mj.MatchRecord:
    """Three gb hands with at least one win among them."""
    for seed in range(40):
        rec = mj.Game(
            rules="gb",
            bots=[EfficiencyBot(seed=seed * 4 + i) for i in range(4)],
            seed=seed,
            hands=3,
        ).play()
        if any(h.result["wins"] for h in rec.hands):
            rec.players = ["Person", "EfficiencyBot", "EfficiencyBot", "EfficiencyBot"]
            return rec
    raise AssertionError("no win in 40 matches")


def test_the_steps_end_where_the_engine_ends(record: mj.MatchRecord) -> None:
    names = seat_names(record)
    assert names == ["You", "Right", "Across", "Left"]
    for h in record.hands:
        steps = hand_steps(h, record.n_hands, names, 144 - 53)
        r = replay_hand(record.rule_set(), h)
        last = steps[-1]
        assert last.wall == r.wall_remaining
        for s in range(4):
            assert sorted(r.flowers(s)) == sorted(last.flowers[s])
            assert len(r.melds(s)) == len(last.melds[s])
        assert len(steps) == 1 + sum(1 for e in h.events if e["type"] not in ("dice", "deal"))


def test_single_keys_step_through_the_hands(record: mj.MatchRecord) -> None:
    async def go() -> None:
        app = ReplayApp(record)
        async with app.run_test(size=(160, 50)) as pilot:
            table = app.table
            assert (table.hand_index, table.step_index) == (0, 0)
            # Every hand is open: each seat shows 13 or 14 concealed tiles at the deal.
            assert all(len(c) in (13, 14) for c in table.steps(0)[0].concealed)
            await pilot.press("right", "right", "right")
            assert table.step_index == 3
            await pilot.press("left")
            assert table.step_index == 2
            await pilot.press("end")
            assert table.step_index == len(table.steps(0)) - 1
            shown = app.screen.query_one("#rresult-body")
            assert "Settlement" in text_of(shown)
            await pilot.press("right")  # past the end: the next hand
            assert (table.hand_index, table.step_index) == (1, 0)
            await pilot.press("p")
            assert table.hand_index == 0
            # Go to a hand that was won: its fan table shows at the end.
            won = next(i for i, h in enumerate(record.hands) if h.result["wins"])
            for _ in range(won):
                await pilot.press("n")
            await pilot.press("end")
            assert "Fans" in text_of(app.screen.query_one("#rresult-body"))
            you = text_of(app.screen.query_one("#rseat0", SeatPanel))
            assert "You" in you
            await pilot.press("q")
        assert app.return_code in (0, None)

    asyncio.run(go())
