"""The table as a player sees it at 80x24 and 160x50 (Textual's Pilot): what fits, what
the action log says, how claims and claimed discards show, honest hints, names in
``--ascii`` and huainan, and what a record keeps when the player quits mid-hand."""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any

import pytest

pytest.importorskip("textual")

from rich.console import Console  # noqa: E402

import majiang as mj  # noqa: E402
from majiang.ui import MajiangApp, Options  # noqa: E402
from majiang.ui.app import GameScreen  # noqa: E402
from majiang.ui.controller import Controller  # noqa: E402
from majiang.ui.hints import compute_hints, hint_text  # noqa: E402
from majiang.ui.log import ActionLog  # noqa: E402
from majiang.ui.scenarios import ScriptedPerson, find_seed, keys_for  # noqa: E402
from majiang.ui.screens import (  # noqa: E402
    LogScreen,
    QuitScreen,
    ResultScreen,
    StandingsScreen,
    fan_table,
    huainan_table,
)
from majiang.ui.widgets import ActionBar  # noqa: E402

SMALL = (80, 24)
LARGE = (160, 50)
CJK = re.compile(r"[\u3400-\u9fff]")


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def screen_text(app: MajiangApp) -> list[str]:
    """The terminal's lines as plain text (what the compositor would paint)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def render(renderable: Any, width: int = 120) -> str:
    console = Console(width=width, file=io.StringIO(), record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def app_for(seed: int, rules: str = "gb", **kw: Any) -> MajiangApp:
    return MajiangApp(Options(rules=rules, seed=seed, level="easy", delay=0, hands=1, **kw))


@pytest.mark.parametrize("size", [SMALL, LARGE])
@pytest.mark.parametrize("rules", ["gb", "huainan"])
def test_header_names_the_bots_and_the_footer_offers_quit(size: tuple[int, int], rules: str):
    async def go() -> None:
        app = app_for(11, rules)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            lines = screen_text(app)
            assert "vs RandomBot (easy)" in lines[0]
            assert lines[-1].rstrip().endswith("q quit")
            if rules == "huainan":
                assert "宝" in lines[0]

    run(go())


def test_a_terminal_too_small_gets_a_notice_until_it_grows() -> None:
    async def go() -> None:
        app = app_for(11)
        async with app.run_test(size=(70, 20)) as pilot:
            await pilot.pause()
            text = "\n".join(screen_text(app))
            assert "too small" in text and "80x24" in text and "70x20" in text
            await pilot.resize_terminal(*SMALL)
            await pilot.pause()
            text = "\n".join(screen_text(app))
            assert "too small" not in text and "q quit" in text

    run(go())


def test_relabelled_buttons_show_their_whole_label() -> None:
    async def go() -> None:
        app = app_for(11)
        async with app.run_test(size=SMALL) as pilot:
            bar = app.screen.query_one(ActionBar)
            bar.show("Which one?", [("1", "Chow"), ("escape", "Back")])
            await pilot.pause()
            bar.show("Which one?", [("1", "Chow 6条7条8条"), ("2", "Chow 7条8条9条")])
            await pilot.pause()
            text = "\n".join(screen_text(app))
            assert "[1] Chow 6条7条8条" in text and "[2] Chow 7条8条9条" in text
            await pilot.press("q")
            assert isinstance(app.screen, QuitScreen)
            await pilot.pause()
            text = "\n".join(screen_text(app))
            assert "[n] No, keep playing" in text and "[y] Yes, quit" in text

    run(go())


@pytest.fixture(scope="module")
def pung_seed() -> int:
    seed = find_seed(lambda g: g.took("pung"), seeds=range(300))
    assert seed is not None
    return seed


async def play_to_pung(pilot: Any, app: MajiangApp) -> None:
    """Plays the scripted person's keys until it has just claimed a pung."""
    person = ScriptedPerson()
    for _ in range(300):
        screen = app.screen
        assert isinstance(screen, GameScreen)
        action = person.act(screen.c.observation(), screen.c.rules)
        await pilot.press(*keys_for(screen, action))
        if action.kind == "pung":
            await pilot.pause()
            return
    raise AssertionError("no pung")


@pytest.mark.parametrize("size", [SMALL, LARGE])
def test_after_a_pung_the_log_the_pool_and_d_say_what_happened(pung_seed: int, size) -> None:
    async def go() -> None:
        app = app_for(pung_seed)
        async with app.run_test(size=size) as pilot:
            await play_to_pung(pilot, app)
            game = app.game
            assert game.mode == "turn"
            bar = app.screen.query_one(ActionBar)
            prompt = str(bar.prompt)
            assert "d = drawn" not in prompt and "pick a discard" in prompt
            await pilot.press("d")
            assert "No drawn tile" in str(bar.prompt)
            assert game.mode == "turn"
            text = "\n".join(screen_text(app))
            # The claimed discard stays in its pool, struck and marked.
            assert "↑" in text
            lines = [line.text.plain for line in game.history.lines]
            assert any(line.startswith("You pung") for line in lines)
            assert any("draws (wall" in line for line in lines)
            if size == LARGE:
                assert "You pung" in text  # the log beside the table
            await pilot.press("l")
            assert isinstance(app.screen, LogScreen)
            await pilot.press("escape")
            assert app.screen is game

    run(go())


def test_the_log_says_when_your_claim_is_overridden() -> None:
    log = ActionLog(["You", "Right", "Across", "Left"])
    log.start_hand(1, 1, 0)
    chow = mj.Action("chow", mj.parse_tiles("3m")[0])
    pung = {"type": "pung", "seat": 2, "from": 3, "tile": mj.parse_tiles("4m")[0]}
    log.add(0, chow, [pung, {"type": "discard", "seat": 2, "tile": 5, "ready": False}])
    text = [line.text.plain for line in log.lines]
    assert any("Your chow 3万4万5万 was overridden: Across pungs it" in t for t in text), text
    assert any(t.startswith("Across pungs 5万") or t.startswith("Across pungs 4万") for t in text)


def test_ascii_tables_have_no_chinese() -> None:
    win = {
        "fans": [{"name": "All Pungs", "name_zh": "碰碰和", "points": 6, "count": 1}],
        "fan_total": 8,
        "flowers": 2,
    }
    text = render(fan_table(win, ascii=True))
    assert not CJK.search(text) and "All Pungs" in text and "Flower Tiles" in text
    hw = {
        "form": "qing_pengpeng",
        "form_zh": "清碰碰糊",
        "multipliers": [["feibao", 2]],
        "value": 8,
        "fan_total": 8,
    }
    text = render(huainan_table(hw, ascii=True))
    assert not CJK.search(text) and "qing_pengpeng" not in text and "feibao" not in text
    text = render(huainan_table(hw))
    assert "清碰碰糊" in text and "飞宝" in text and "pure all pungs" in text
    assert "qing_pengpeng" not in text and "feibao" not in text


def test_hints_list_only_tiles_left_and_count_the_minimum_as_the_rules_do() -> None:
    seen_outlook = 0
    for seed in range(6):
        c = Controller("gb", seed, "easy", hands=1)
        c.start_hand()
        for _ in range(12):
            c.run_bots()
            if c.hand_over:
                break
            h = compute_hints(c)
            assert all(n > 0 for _, n in h.useful)
            assert all(n > 0 for o in h.discards for _, n in o.useful)
            # The easy level's RandomBot gives no advice: the normal level's bot does.
            assert h.advisor == "EfficiencyBot"
            o = h.outlook
            if o is not None and o.exact and o.completions:
                seen_outlook += 1
                assert o.reachable == (o.best_counted >= h.min_fan)
                assert o.best_total >= o.best_counted
            text = hint_text(c, ascii=True).plain
            assert not CJK.search(text)
            assert "×0" not in hint_text(c).plain
            obs = c.observation()
            c.act(ScriptedPerson().act(obs, c.rules))
    assert seen_outlook > 0


def test_huainan_says_why_no_win_is_offered_while_holding_a_bao() -> None:
    t = mj.parse_tiles

    class Obs:
        bao = t("5p")[0]
        hand = t("123m456p789s112z5p")
        drawn = None
        seat = 0
        melds: list[list[Any]] = [[], [], [], []]

    screen = GameScreen.__new__(GameScreen)
    screen.ascii = False
    screen.c = Controller("huainan", 1, "easy", hands=1)
    completes, other = t("2z")[0], t("3z")[0]
    assert "宝" in screen._no_discard_win(Obs(), [mj.Action("pass")], completes)
    assert screen._no_discard_win(Obs(), [mj.Action("pass")], other) == ""
    assert screen._no_discard_win(Obs(), [mj.Action("win"), mj.Action("pass")], completes) == ""
    Obs.hand = t("123m456p789s112z6p")  # no 宝 held: nothing to explain
    assert screen._no_discard_win(Obs(), [mj.Action("pass")], completes) == ""


def test_a_record_keeps_the_finished_hands_when_the_player_quits(tmp_path: Any) -> None:
    path = tmp_path / "quit.jsonl"
    c = Controller("gb", 4, "easy", hands=3, bots=[mj.bots.FirstBot() for _ in range(3)])
    c.record_to(str(path))
    person = ScriptedPerson()
    c.start_hand()
    while not c.hand_over:
        c.run_bots()
        if not c.hand_over:
            c.act(person.act(c.observation(), c.rules))
    c.finish_hand()
    assert len(mj.MatchRecord.load(path).hands) == 1  # on disk as soon as it ended
    c.start_hand()
    c.run_bots()
    assert c.hand_in_progress
    c.close_record()  # the player quits mid-hand
    rec = mj.MatchRecord.load(path)
    assert len(rec.hands) == 1 and not rec.complete
    rec.replay()


def test_hints_shade_the_advised_discard_in_the_hand() -> None:
    async def go() -> None:
        app = app_for(11)
        async with app.run_test(size=SMALL) as pilot:
            await pilot.press("t")
            await pilot.pause()
            advised = app.screen.query(".-advised")
            assert len(advised) == 1
            tile = advised.first().tile
            h = compute_hints(app.controller)
            assert h.suggestion.kind == "discard" and h.suggestion.tile == tile
            assert "EfficiencyBot would play" in str(app.screen.query_one("#hints").content)
            await pilot.press("t")
            await pilot.pause()
            assert len(app.screen.query(".-advised")) == 0

    run(go())


def test_hints_read_the_danger_and_shade_risky_tiles() -> None:
    from majiang.ui.hints import DANGER_SHADE

    async def go() -> None:
        app = app_for(11)
        async with app.run_test(size=SMALL) as pilot:
            await pilot.press("t")
            await pilot.pause()
            h = compute_hints(app.controller)
            assert len(h.ready) == 4 and len(h.deal_in) == 34
            text = str(app.screen.query_one("#hints").content)
            assert "ready now: Right" in text and "Across" in text and "Left" in text
            assert "deal-in risk:" in text
            bar = app.screen.query_one("#hand")
            want = {t for t, p in enumerate(h.deal_in) if p >= DANGER_SHADE}
            assert bar.danger == want
            shaded = {w.tile for w in app.screen.query(".-danger")}
            assert shaded <= want
            # Forcing a reading shades exactly those tiles the hand holds (an advised
            # tile keeps its own green shade).
            held = set(bar.tiles) | ({bar.drawn} if bar.drawn is not None else set())
            app.screen._shade_danger(frozenset(held))
            await pilot.pause()
            advised = {w.tile for w in app.screen.query(".-advised")}
            assert {w.tile for w in app.screen.query(".-danger")} == held - advised
            await pilot.press("t")
            await pilot.pause()
            assert len(app.screen.query(".-danger")) == 0

    run(go())


def test_match_summary_counts_wins_deal_ins_and_draws_the_scores() -> None:
    from majiang.ui.screens import HandLine, match_summary, sparkline

    names = ["You", "Right", "Across", "Left"]
    lines = [
        HandLine(
            1,
            0,
            0,
            {
                "wins": [{"seat": 0, "how": "self_drawn", "from": 0, "fan_total": 12}],
                "deltas": [48, -16, -16, -16],
            },
        ),
        HandLine(
            2,
            0,
            0,
            {
                "wins": [{"seat": 2, "how": "discard", "from": 0, "fan_total": 8}],
                "deltas": [-16, -8, 32, -8],
            },
        ),
        HandLine(3, 1, 0, {"wins": [], "deltas": [0, 0, 0, 0]}),
    ]
    text = render(match_summary(names, lines), width=160)
    you = next(line for line in text.splitlines() if "You" in line)
    across = next(line for line in text.splitlines() if "Across" in line)
    assert re.search(r"You\s+│\s*1\s+│\s*1\s+│\s*1\s+│ 12 fan \(hand 1\)", you), you
    assert re.search(r"Across\s+│\s*1\s+│\s*0\s+│\s*0\s+│ 8 fan \(hand 2\)", across), across
    assert sparkline([0, 5, 10], 0, 10) == "▁▅█"
    assert sparkline([48, 32, 32], -32, 48).startswith("█")
    assert not CJK.search(render(match_summary(names, lines, ascii=True)))
    assert sparkline([0, 5, 10], 0, 10, ascii=True) == "_-#"


@pytest.mark.parametrize("rules", ["gb", "huainan"])
def test_ascii_screens_show_no_chinese(rules: str) -> None:
    async def go() -> None:
        app = app_for(11, rules, ascii=True)
        person = ScriptedPerson()
        async with app.run_test(size=SMALL) as pilot:
            await pilot.press("t")
            for _ in range(300):
                await pilot.pause()
                text = "\n".join(screen_text(app))
                assert not CJK.search(text), text
                screen = app.screen
                if isinstance(screen, GameScreen):
                    action = person.act(screen.c.observation(), screen.c.rules)
                    await pilot.press(*keys_for(screen, action))
                elif isinstance(screen, ResultScreen):
                    await pilot.press("enter")
                else:
                    break
            assert isinstance(app.screen, StandingsScreen)

    run(go())


def test_a_failed_record_write_does_not_stop_the_game(tmp_path: Any) -> None:
    path = tmp_path / "r.jsonl"
    c = Controller("gb", 4, "easy", hands=2, bots=[mj.bots.FirstBot() for _ in range(3)])
    c.record_to(str(path))

    class Broken:
        def add_hand(self, hand: Any) -> None:
            raise OSError(28, "No space left on device")

        def close(self) -> None:
            pass

    c.writer.close()
    broken = Broken()
    broken.path = str(path)  # type: ignore[attr-defined]
    c.writer = broken  # type: ignore[assignment]
    person = ScriptedPerson()
    c.start_hand()
    while not c.hand_over:
        c.run_bots()
        if not c.hand_over:
            c.act(person.act(c.observation(), c.rules))
    c.finish_hand()
    assert c.record_error and "No space left" in c.record_error
    assert c.writer is None and len(c.record.hands) == 1
    c.start_hand()  # the match goes on
