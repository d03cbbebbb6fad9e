"""The terminal game, played through the Textual Pilot as a person would: keys and clicks
in, what the screen shows out. Seeds are found by search (majiang.ui.scenarios), so the
situations under test (a pung offered, a win offered) occur whatever the bots do."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import pytest

pytest.importorskip("textual")

from rich.console import Console  # noqa: E402
from textual import events  # noqa: E402

import majiang as mj  # noqa: E402
from majiang.ui import MajiangApp, Options  # noqa: E402
from majiang.ui.app import GameScreen  # noqa: E402
from majiang.ui.scenarios import (  # noqa: E402
    ScriptedPerson,
    find_seed,
    keys_for,
    play_hand,
    pung_then_win,
)
from majiang.ui.screens import QuitScreen, ResultScreen, StandingsScreen  # noqa: E402
from majiang.ui.tiles import inline  # noqa: E402
from majiang.ui.widgets import ActionBar, HandBar, KeyButton, SeatPanel  # noqa: E402

SIZE = (110, 36)


def text_of(widget: Any, width: int = 140) -> str:
    """What a Static shows, as plain text."""
    console = Console(width=width, file=io.StringIO(), record=True, color_system=None)
    console.print(widget.content)
    return console.export_text()


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def app_for(seed: int, hands: int | None = 1, **kw: Any) -> MajiangApp:
    opts = Options(seed=seed, level=kw.pop("level", "easy"), delay=0, hands=hands, **kw)
    return MajiangApp(opts)


async def type_keys(pilot: Any, *keys: str) -> None:
    """Types keys through the terminal driver, as Pilot.press does, but waits only until
    the screen has handled each one (Pilot also sleeps until the process looks idle)."""
    app = pilot.app
    for key in keys:
        event = events.Key(key, key if len(key) == 1 else (" " if key == "space" else None))
        event.set_sender(app)
        app._driver.send_message(event)
        await pilot._wait_for_screen()
        await pilot._wait_for_screen()


async def play_until(
    pilot: Any,
    app: MajiangApp,
    person: ScriptedPerson,
    stop: Any,
    limit: int = 400,
    press: Any = None,
) -> None:
    """Presses the keys of `person`'s choices until `stop(screen)` is true."""
    press = press or pilot.press
    for _ in range(limit):
        screen = app.screen
        if stop(screen):
            return
        if isinstance(screen, GameScreen):
            action = person.act(screen.c.observation(), screen.c.rules)
            await press(*keys_for(screen, action))
        elif isinstance(screen, ResultScreen):
            await press("enter")
        else:
            raise AssertionError(f"unexpected screen {screen}")
    raise AssertionError("the scripted person did not reach the expected point")


@pytest.fixture(scope="module")
def pung_win_seed() -> int:
    seed = find_seed(pung_then_win, seeds=range(3000))
    assert seed is not None, "no seed in 0-2999 where the person pungs and then wins"
    return seed


def test_select_with_arrows_and_discard_with_enter() -> None:
    async def go() -> None:
        app = app_for(seed=11)
        async with app.run_test(size=SIZE) as pilot:
            game = app.game
            assert game.mode == "turn"
            hand = app.screen.query_one(HandBar)
            tiles = list(hand.tiles)
            assert hand.drawn is not None and len(tiles) == 13
            # The drawn tile is selected first; → wraps to the first tile, → again the second.
            assert game.selected == 13
            await pilot.press("right", "right")
            assert game.selected == 1
            await pilot.press("left")
            assert game.selected == 0
            await pilot.press("right")
            await pilot.press("enter")
            log = app.controller.observation().discard_log
            assert log[0][:2] == (0, tiles[1])
            you = app.screen.query_one("#you", SeatPanel)
            assert mj.tile_name(tiles[1])[0] in text_of(you)

    run(go())


def test_d_discards_the_drawn_tile_and_the_table_moves_on() -> None:
    async def go() -> None:
        app = app_for(seed=4, ascii=True)
        async with app.run_test(size=SIZE) as pilot:
            drawn = app.screen.query_one(HandBar).drawn
            wall = app.controller.observation().wall_remaining
            await pilot.press("d")
            obs = app.controller.observation()
            assert obs.discard_log[0][:2] == (0, drawn)
            # The bots played on: the wall shrank and the person decides again.
            assert obs.wall_remaining < wall
            assert app.controller.person_to_act() or app.controller.hand_over

    run(go())


def test_claim_prompt_lists_exactly_the_legal_options() -> None:
    seed = find_seed(lambda g: g.was_offered("pung"), seeds=range(500))
    assert seed is not None

    async def go() -> None:
        app = app_for(seed=seed)
        person = ScriptedPerson(claims=())
        async with app.run_test(size=SIZE) as pilot:
            await play_until(
                pilot,
                app,
                person,
                lambda s: (
                    isinstance(s, GameScreen)
                    and s.mode == "claim"
                    and any(a.kind == "pung" for a in s.c.legal_actions())
                ),
            )
            legal = app.controller.legal_actions()
            bar = app.screen.query_one(ActionBar)
            keys = [k for k, _ in bar.choices]
            expected = []
            for key, kinds in (
                ("h", {"win"}),
                ("k", {"kong"}),
                ("p", {"pung"}),
                ("c", {"chow"}),
                ("space", {"pass"}),
            ):
                if any(a.kind in kinds for a in legal):
                    expected.append(key)
            assert keys == expected
            assert "p" in keys and "space" in keys
            labels = dict(bar.choices)
            tile = next(a.tile for a in legal if a.kind == "pung")
            assert labels["p"] == f"Pung {inline(tile)}"
            assert labels["space"] == "Pass"
            # A click on the Pass button passes (Space does the same): play goes on.
            events = app.controller.round.n_events
            button = next(b for b in bar.query(KeyButton) if b.display and b.key == "space")
            await pilot.click(button)
            assert app.controller.round.n_events > events

    run(go())


def test_a_full_hand_with_a_pung_and_a_win(pung_win_seed: int) -> None:
    expected = play_hand(pung_win_seed)
    assert expected.took("pung") and expected.person_won

    async def go() -> None:
        app = app_for(seed=pung_win_seed)
        person = ScriptedPerson()
        saw_pung_offer = False
        saw_win_offer = False
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(300):
                screen = app.screen
                if isinstance(screen, ResultScreen):
                    break
                assert isinstance(screen, GameScreen)
                legal = screen.c.legal_actions()
                keys = [k for k, _ in screen.query_one(ActionBar).choices]
                if any(a.kind == "pung" for a in legal):
                    saw_pung_offer = True
                    assert "p" in keys
                if any(a.kind == "win" for a in legal):
                    saw_win_offer = True
                    assert "h" in keys
                action = person.act(screen.c.observation(), screen.c.rules)
                await pilot.press(*keys_for(screen, action))
            assert saw_pung_offer and saw_win_offer
            screen = app.screen
            assert isinstance(screen, ResultScreen)
            result = app.controller.record.hands[0].result
            assert result == expected.result
            win = result["wins"][0]
            assert win["seat"] == 0
            shown = text_of(screen.query_one("#result"))
            assert "You win" in shown
            for f in win["fans"]:
                assert f["name"] in shown and f["name_zh"] in shown
            assert "Total" in shown and str(win["fan_total"]) in shown
            # The settlement lists every seat with its payment.
            for name, d in zip(("You", "Right", "Across", "Left"), result["deltas"], strict=True):
                assert name in shown and f"{d:+d}" in shown
            await pilot.press("enter")
            assert isinstance(app.screen, StandingsScreen)

    run(go())


def test_hints_toggle_with_t() -> None:
    async def go() -> None:
        app = app_for(seed=2)
        async with app.run_test(size=SIZE) as pilot:
            panel = app.screen.query_one("#hints")
            assert not panel.has_class("-shown")
            await pilot.press("t")
            assert panel.has_class("-shown")
            shown = text_of(panel)
            assert "Hints" in shown and "discard" in shown
            obs = app.controller.observation()
            assert str(mj.shanten(obs.hand, rules="gb")) in shown or "ready" in shown
            await pilot.press("t")
            assert not panel.has_class("-shown")

    run(go())


def test_long_hints_scroll_on_a_small_terminal() -> None:
    """At 80x24 the reasons make the hints longer than their panel: ``]`` and ``[`` scroll
    them, the advice stays first, and the hand's keys still reach the table."""

    async def go() -> None:
        app = app_for(seed=2, explain=True, ascii=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            box = app.screen.query_one("#hints-box")
            panel = app.screen.query_one("#hints")
            assert box.display and panel.region.height > box.region.height
            assert text_of(panel).startswith("Hints")
            await pilot.press("right_square_bracket")
            await pilot.pause()
            assert box.scroll_y > 0
            await pilot.press("left_square_bracket")
            await pilot.pause()
            assert box.scroll_y == 0
            selected = app.screen.selected
            await pilot.press("right")
            assert app.screen.selected != selected

    run(go())


def test_explain_shows_the_level_bots_reasons_from_the_start() -> None:
    from majiang.ui.hints import mode_words

    async def go() -> None:
        app = app_for(seed=2, explain=True, ascii=True, level="hard")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            panel = app.screen.query_one("#hints")
            assert panel.has_class("-shown")
            shown = text_of(panel)
            obs = app.controller.observation()
            # The hard level's opponents are ExpertBot, and so is the advice.
            assert type(app.controller.bots[1]).__name__ == "ExpertBot"
            e = app.controller.advisor.explain(obs)
            assert "ExpertBot would play: discard" in shown
            assert f"why: {mode_words(e, 'ExpertBot')}" in shown
            # The three leading candidates in the advisor's order, the chosen one marked,
            # each with what it leaves and its figures, named.
            first = next(line for line in shown.splitlines() if line.lstrip().startswith(">"))
            assert inline(e.discards[0].tile, True) in first
            assert e.discards[0].plan in first and "deal-in" in first and "value" in first
            rows = [
                line.split()[0]
                for line in shown.splitlines()
                if "useful;" in line and "fan;" in line
            ]
            assert rows[0] == ">" and len(rows) == 3
            lines = [line for line in shown.splitlines() if "useful;" in line]
            for d, line in zip(e.discards[:3], lines, strict=True):
                assert inline(d.tile, True) in line and d.plan in line
            # No figure reads 0.00 (small values keep two significant digits).
            assert "value 0.00," not in shown and not shown.rstrip().endswith("0.00")
            # t still hides them.
            await pilot.press("t")
            assert not panel.has_class("-shown")

    run(go())


def test_play_explain_opens_the_hints_and_reaches_the_served_game() -> None:
    from majiang.cli import build_parser
    from majiang.commands.play import game_command

    args = build_parser().parse_args(["play", "--explain", "--seed", "3"])
    assert args.explain
    assert "--explain" in game_command(args)
    assert "--explain" not in game_command(build_parser().parse_args(["play"]))


def test_quit_asks_first() -> None:
    async def go() -> None:
        app = app_for(seed=1)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("q")
            assert isinstance(app.screen, QuitScreen)
            await pilot.press("n")
            assert isinstance(app.screen, GameScreen)
            await pilot.press("q", "y")
        assert app.return_code == 0

    run(go())


def test_mouse_selects_then_discards() -> None:
    async def go() -> None:
        app = app_for(seed=7)
        async with app.run_test(size=SIZE) as pilot:
            hand = app.screen.query_one(HandBar)
            target = hand.tiles[2]
            await pilot.click(hand.slots[2])
            assert app.game.selected == 2
            assert app.controller.observation().discard_log == []
            await pilot.click(hand.slots[2])
            assert app.controller.observation().discard_log[0][:2] == (0, target)

    run(go())


def test_whole_gb_match_by_keyboard_scores_add_up(tmp_path: Any) -> None:
    """A person plays a whole gb match (16 hands) with the keyboard only; the final
    standings equal the sum of the hands' settlements, and the record replays."""
    path = tmp_path / "match.jsonl"

    async def go() -> MajiangApp:
        # Normal level: the bots win hands too, so every kind of payment occurs.
        app = app_for(seed=2024, hands=None, record=str(path), level="normal")
        async with app.run_test(size=SIZE) as pilot:
            person = ScriptedPerson(claims=("pung", "chow"), prefer_drawn=True)
            await play_until(
                pilot,
                app,
                person,
                lambda s: isinstance(s, StandingsScreen),
                limit=5000,
                press=lambda *k: type_keys(pilot, *k),
            )
            shown = text_of(app.screen.query_one("#standings"))
            rec = app.controller.record
            assert len(rec.hands) == 16
            sums = [sum(h.result["deltas"][s] for h in rec.hands) for s in range(4)]
            assert rec.final_scores == sums == app.controller.scores
            assert sum(sums) == 0
            winners = {w["seat"] for h in rec.hands for w in h.result["wins"]}
            assert 0 in winners and winners - {0}, "both the person and the bots win hands"
            for s in sums:
                assert f"{s:+d}" in shown
            await pilot.press("enter")
        return app

    app = run(go())
    rec = mj.MatchRecord.from_json(path.read_text())
    assert len(rec.hands) == 16
    assert rec.final_scores == app.controller.scores
    mj.replay_record(rec)


def test_huainan_shows_the_bao_and_scores_a_win() -> None:
    seed = find_seed(lambda g: g.person_won, rules="huainan", seeds=range(300))
    assert seed is not None

    async def go() -> None:
        app = MajiangApp(Options(rules="huainan", seed=seed, level="easy", delay=0, hands=1))
        async with app.run_test(size=SIZE) as pilot:
            obs = app.controller.observation()
            assert obs.bao is not None
            info = text_of(app.screen.query_one("#info"))
            assert "宝" in info and inline(obs.bao) in info and inline(obs.bao_indicator) in info
            hand = app.screen.query_one(HandBar)
            for w in [*hand.slots, hand.drawn_slot]:
                if w.display:
                    assert w.has_class("-wild") == (w.tile == obs.bao)
            await play_until(pilot, app, ScriptedPerson(), lambda s: isinstance(s, ResultScreen))
            win = app.controller.record.hands[0].result["wins"][0]
            shown = text_of(app.screen.query_one("#result"))
            assert "You win" in shown and win["form_zh"] in shown
            assert str(win["value"]) in shown

    run(go())


def test_several_chows_ask_which_one() -> None:
    seed = find_seed(lambda g: g.offered_several("chow"), seeds=range(500))
    assert seed is not None

    async def go() -> None:
        app = app_for(seed=seed)
        async with app.run_test(size=SIZE) as pilot:
            await play_until(
                pilot,
                app,
                ScriptedPerson(claims=()),
                lambda s: (
                    isinstance(s, GameScreen)
                    and s.mode == "claim"
                    and sum(a.kind == "chow" for a in s.c.legal_actions()) > 1
                ),
            )
            chows = [a for a in app.controller.legal_actions() if a.kind == "chow"]
            await pilot.press("c")
            game = app.game
            assert game.mode == "choose"
            bar = app.screen.query_one(ActionBar)
            assert [k for k, _ in bar.choices] == [str(i + 1) for i in range(len(chows))] + [
                "escape"
            ]
            # Escape goes back to the claim prompt, c and 2 take the second chow.
            await pilot.press("escape")
            assert game.mode == "claim"
            await pilot.press("c", "2")
            low = chows[1].tile
            melds = app.controller.observation().melds[0]
            assert any(m.kind == "chow" and list(m.tiles) == [low, low + 1, low + 2] for m in melds)

    run(go())


def test_classic_declares_ready_with_r() -> None:
    person = ScriptedPerson(ready=True)
    seed = find_seed(lambda g: g.took("ready"), rules="classic", person=person, seeds=range(300))
    assert seed is not None

    async def go() -> None:
        app = MajiangApp(Options(rules="classic", seed=seed, level="easy", delay=0, hands=1))
        async with app.run_test(size=SIZE) as pilot:
            await play_until(
                pilot,
                app,
                person,
                lambda s: isinstance(s, ResultScreen) or app.controller.observation().ready[0],
            )
            obs = app.controller.observation()
            assert obs.ready[0]
            assert any(seat == 0 and ready for seat, _, _, ready in obs.discard_log)
            if isinstance(app.screen, GameScreen):
                assert "听" in text_of(app.screen.query_one("#you", SeatPanel))

    run(go())


def test_botzone_table_shows_the_private_walls() -> None:
    """``majiang play --rules botzone``: the game runs on Botzone's table, the header shows
    the person's and the next seat's private walls, and they count down as seats draw."""

    async def go() -> None:
        app = app_for(seed=5, ascii=True, rules=mj.botzone.rules())
        async with app.run_test(size=SIZE) as pilot:
            r = app.controller.round
            walls = r.seat_walls
            assert walls is not None and sum(walls) == r.wall_remaining
            info = text_of(app.screen.query_one("#info"))
            assert f"(yours {walls[0]}, next {walls[1]})" in info
            await pilot.press("d")
            after = app.controller.round.seat_walls
            assert sum(after) < sum(walls)
            if not app.controller.hand_over:
                info = text_of(app.screen.query_one("#info"))
                assert f"(yours {after[0]}, next {after[1]})" in info

    run(go())


def test_a_shared_wall_has_no_seat_walls() -> None:
    r = mj.Round("gb", seed=1)
    assert r.seat_walls is None
