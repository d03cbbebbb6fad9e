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
from majiang.record import hand_round, replay_hand, replay_moves  # noqa: E402
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


def test_the_steps_are_the_rounds_tables_move_by_move(record: mj.MatchRecord) -> None:
    """Each step is the table of the hand's Round after a recorded move (checked against
    a Round stepped here with the record's decisions), and the last is the round the
    replay ends with."""
    names = seat_names(record)
    assert names == ["You", "Right", "Across", "Left"]
    rules = record.rule_set()
    for h in record.hands:
        steps = hand_steps(h, rules, record.n_hands, names)
        r = hand_round(rules, h)
        tables = [([list(r.hand(s)) for s in range(4)], r.wall_remaining)]
        logged = 0
        for _, _, events in replay_moves(r, h):
            logged += len(events)
            if events:
                tables.append(([list(r.hand(s)) for s in range(4)], r.wall_remaining))
        assert [(s.concealed, s.wall) for s in steps] == tables
        assert logged + len(hand_round(rules, h).events()) == len(h.events)
        last, end = steps[-1], replay_hand(rules, h)
        assert last.wall == end.wall_remaining
        for s in range(4):
            assert last.concealed[s] == list(end.hand(s))
            assert last.flowers[s] == list(end.flowers(s))
            assert last.melds[s] == [(m.kind, list(m.tiles)) for m in end.melds(s)]
        # Every move changed the table, and the log grew with it.
        for a, b in zip(steps, steps[1:], strict=False):
            assert len(b.log) > len(a.log)


def test_a_record_the_engine_does_not_reproduce_shows_where(record: mj.MatchRecord) -> None:
    h = record.hands[0]
    events = list(h.events_json)
    at = next(i for i, e in enumerate(events) if '"type":"discard"' in e)
    bad = mj.record.HandRecord(**{**h.__dict__, "events_json": events[:at] + events[at + 1 :]})
    steps = hand_steps(bad, record.rule_set(), record.n_hands, seat_names(record))
    assert "does not reproduce" in steps[-1].log[-1].plain
    assert len(steps) < len(hand_steps(h, record.rule_set(), record.n_hands, seat_names(record)))


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


def test_a_huainan_replay_shows_the_bao_from_the_round() -> None:
    rec = mj.Game("huainan", bots=[mj.bots.FirstBot() for _ in range(4)], seed=5, hands=1).play()
    h = rec.hands[0]
    bao = next(e for e in h.events if e["type"] == "bao")
    steps = hand_steps(h, rec.rule_set(), rec.n_hands, seat_names(rec), unit="points")
    assert all(s.bao == (bao["indicator"], bao["tile"]) for s in steps)
