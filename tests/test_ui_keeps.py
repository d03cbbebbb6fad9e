"""The table a player keeps: each defect a new player met, fixed and held here.

- the danger reading shows by a mark beside the tile's rank, which survives 256 and 16
  colours and monochrome (the two shades used to map to one colour in 256 colours);
- a complete hand offered no win says why: the fans it counts and the minimum;
- the hints come from the bot the level plays and name each figure for what it is;
- help (keys, rules, fans, statistics) and settings (kept between runs);
- statistics of every finished hand, with a small chart;
- Space does not skip the fan table; the footer keeps log, help and quit at 80 columns;
- the automatic discard after a classic 报听 says so.
"""

from __future__ import annotations

import asyncio
import io
import json
import re
from typing import Any

import pytest

pytest.importorskip("textual")

from rich.color import ColorSystem  # noqa: E402
from rich.console import Console  # noqa: E402
from textual.app import App, ComposeResult  # noqa: E402
from textual.filter import Monochrome  # noqa: E402
from textual.geometry import Region  # noqa: E402

import majiang as mj  # noqa: E402
from majiang.coach.store import Settings, Store, bar_chart, summarize  # noqa: E402
from majiang.ui import MajiangApp, Options  # noqa: E402
from majiang.ui.app import GameScreen  # noqa: E402
from majiang.ui.controller import Controller  # noqa: E402
from majiang.ui.help import HelpScreen  # noqa: E402
from majiang.ui.hints import compute_hints, hint_text, short_win  # noqa: E402
from majiang.ui.log import ActionLog  # noqa: E402
from majiang.ui.scenarios import ScriptedPerson, find_seed, keys_for  # noqa: E402
from majiang.ui.screens import ResultScreen, StandingsScreen  # noqa: E402
from majiang.ui.settings import SettingsScreen  # noqa: E402
from majiang.ui.tiles import set_colours, suit_style  # noqa: E402
from majiang.ui.widgets import HandBar  # noqa: E402

SMALL = (80, 24)
SIZE = (110, 36)


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def text_of(renderable: Any, width: int = 140) -> str:
    console = Console(width=width, file=io.StringIO(), record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def app_for(seed: int, **kw: Any) -> MajiangApp:
    opts = Options(seed=seed, level=kw.pop("level", "easy"), delay=0, hands=kw.pop("hands", 1))
    for k, v in kw.items():
        setattr(opts, k, v)
    return MajiangApp(opts)


async def play_until(pilot: Any, app: MajiangApp, person: ScriptedPerson, stop: Any) -> None:
    for _ in range(400):
        screen = app.screen
        if stop(screen):
            return
        if isinstance(screen, GameScreen):
            action = person.act(screen.c.observation(), screen.c.rules)
            await pilot.press(*keys_for(screen, action))
        elif isinstance(screen, ResultScreen):
            await pilot.press("enter")
        else:
            raise AssertionError(f"unexpected screen {screen}")
    raise AssertionError("the scripted person never reached the point")


def first_seed(cond: Any, rules: str = "gb", person: ScriptedPerson | None = None) -> int:
    """The first seed whose first hand, played by `person`, reaches a decision where
    ``cond(controller, observation)`` holds."""
    person = person or ScriptedPerson(claims=())
    for seed in range(300):
        c = Controller(rules, seed, "easy", hands=1)
        c.start_hand()
        while not c.hand_over:
            c.run_bots()
            if c.hand_over:
                break
            obs = c.observation()
            if cond(c, obs):
                return seed
            c.act(person.act(obs, c.rules))
    raise AssertionError("no seed in 0-299 reaches the situation")


# ---- danger shown in every colour system -------------------------------------------


class HandApp(App[None]):
    def compose(self) -> ComposeResult:
        yield HandBar(False, id="hand")


def _cells(widget: Any, system: ColorSystem | None) -> list[tuple[str, Any, Any]]:
    """The widget's cells: each character with its colours as a terminal of `system`
    shows them (None: monochrome, no colour at all)."""
    out = []
    for strip in widget.render_lines(Region(0, 0, *widget.outer_size)):
        for seg in strip:
            style = seg.style
            fg = bg = None
            if system is not None and style is not None:
                fg = style.color.downgrade(system).number if style.color else None
                bg = style.bgcolor.downgrade(system).number if style.bgcolor else None
            out.extend((ch, fg, bg) for ch in seg.text)
    return out


@pytest.mark.parametrize(
    "system", [ColorSystem.EIGHT_BIT, ColorSystem.STANDARD, None], ids=["256", "16", "mono"]
)
def test_a_dangerous_tile_looks_different_in_256_and_16_colours_and_monochrome(
    system: ColorSystem | None,
) -> None:
    async def go() -> None:
        app = HandApp()
        async with app.run_test(size=(90, 6)) as pilot:
            bar = app.query_one(HandBar)
            hand = [0, 1, 2, 3, 4, 5, 6]
            bar.show(hand, None, None)
            await pilot.pause()
            plain = [_cells(w, system) for w in bar.slots[:7]]
            bar.danger = frozenset({3})
            bar.advised = 5
            bar.show(hand, None, None)
            await pilot.pause()
            marked = [_cells(w, system) for w in bar.slots[:7]]
            # The dangerous tile and the advised one change; the others do not.
            assert marked[3] != plain[3] and marked[5] != plain[5]
            assert [marked[i] for i in (0, 1, 2, 4, 6)] == [plain[i] for i in (0, 1, 2, 4, 6)]
            text = "".join(ch for ch, _, _ in marked[3])
            assert "!" in text and "!" not in "".join(ch for ch, _, _ in plain[3])
            assert "*" in "".join(ch for ch, _, _ in marked[5])
            if system is ColorSystem.EIGHT_BIT:
                # The shade itself is a different colour in 256 colours too.
                bg = {c[2] for c in marked[3] if c[0] == " "} - {None}
                normal = {c[2] for c in plain[3] if c[0] == " "} - {None}
                assert bg and normal and bg.isdisjoint(normal)

    run(go())


def test_the_colours_setting_none_takes_every_colour_away_and_basic_uses_named_ones() -> None:
    try:
        set_colours("basic")
        assert suit_style(0) == "bold bright_red" and suit_style(9, on_tile=True) == "bold blue"
        set_colours("none")
        assert suit_style(0) == "bold"
        with pytest.raises(mj.InvalidArgumentError, match="colours must be one of"):
            set_colours("sepia")
    finally:
        set_colours("full")
    app = app_for(11, colours="none")
    assert any(isinstance(f, Monochrome) for f in app.get_line_filters())
    assert not any(isinstance(f, Monochrome) for f in app_for(11).get_line_filters())
    set_colours("full")


# ---- why no win ---------------------------------------------------------------------


def test_a_complete_hand_under_the_minimum_says_how_many_fans_it_counts() -> None:
    seed = first_seed(
        lambda c, o: (
            o.phase == "claim"
            and any(a.kind == "pung" for a in o.legal_actions)
            and short_win(o, c.rules, o.claim[1]) is not None
        )
    )

    async def go() -> None:
        app = app_for(seed)
        person = ScriptedPerson(claims=())
        async with app.run_test(size=SIZE) as pilot:

            def there(screen: Any) -> bool:
                if not isinstance(screen, GameScreen) or screen.mode != "claim":
                    return False
                obs = screen.c.observation()
                return short_win(obs, screen.c.rules, obs.claim[1]) is not None

            await play_until(pilot, app, person, there)
            obs = app.controller.observation()
            why = short_win(obs, app.controller.rules, obs.claim[1])
            assert why is not None and why.counted < why.minimum == 8
            # The engine agrees: these tiles win, and score what the table says.
            assert "win" not in {a.kind for a in obs.legal_actions}
            bar = app.screen.query_one("#actions")
            prompt = text_of(bar._label.content, width=400)
            assert f"(no win: {why.counted} fans, 8 needed)" in prompt
            assert sum(p for _, _, p in why.fans) == why.counted
            # The fans themselves: in a notice where the eye goes, and in the log.
            notices = [n.message for n in app._notifications]
            log = " ".join(line.text.plain for line in app.screen.history.lines)
            assert "would complete your hand, but no win" in log
            for _, name, points in why.fans:
                assert any(f"{name} {points}" in n for n in notices), notices
                assert f"{name} {points}" in log

    run(go())


def test_a_self_drawn_complete_hand_under_the_minimum_says_why_at_the_turn() -> None:
    seed = first_seed(lambda c, o: o.phase == "turn" and short_win(o, c.rules) is not None)

    async def go() -> None:
        app = app_for(seed)
        person = ScriptedPerson(claims=())
        async with app.run_test(size=SIZE) as pilot:

            def there(screen: Any) -> bool:
                return (
                    isinstance(screen, GameScreen)
                    and screen.mode == "turn"
                    and short_win(screen.c.observation(), screen.c.rules) is not None
                )

            await play_until(pilot, app, person, there)
            why = short_win(app.controller.observation(), app.controller.rules)
            assert why is not None
            prompt = text_of(app.screen.query_one("#actions")._label.content, width=400)
            assert f"complete, but no win: {why.brief()}" in prompt
            assert any(why.words() in n.message for n in app._notifications)
            log = " ".join(line.text.plain for line in app.screen.history.lines)
            assert "Your hand is complete with" in log

    run(go())


def test_short_win_counts_as_the_rules_count() -> None:
    t = mj.parse_tiles

    class Obs:
        hand = t("123m456m678p23s55z")
        drawn = None
        seat = 0
        seat_wind = 1
        prevalent_wind = 2
        phase = "claim"
        wall_remaining = 40
        legal_actions = [mj.Action("pass")]
        melds: list[list[Any]] = [[], [], [], []]
        flowers: list[list[int]] = [[34, 35], [], [], []]
        ready = [False] * 4
        visible = [0] * 34

    win = t("1s")[0]
    Obs.visible = [0] * 34
    Obs.visible[win] = 1
    why = short_win(Obs(), mj.RuleSet("gb"), win)
    res = mj.evaluate_fan(
        Obs.hand, win, seat_wind=1, prevalent_wind=2, flowers=2, rules="gb", self_drawn=False
    )
    assert why is not None
    assert why.counted == res.total_without_flowers < 8 and why.flowers == 2
    assert "Flower" not in why.words() and "+2 for flowers" in why.words()
    # A tile that completes nothing, a win on offer, or a rule set without fans: nothing.
    assert short_win(Obs(), mj.RuleSet("gb"), t("9s")[0]) is None
    Obs.legal_actions = [mj.Action("win"), mj.Action("pass")]
    assert short_win(Obs(), mj.RuleSet("gb"), win) is None
    Obs.legal_actions = [mj.Action("pass")]
    assert short_win(Obs(), mj.RuleSet("huainan"), win) is None


# ---- hints --------------------------------------------------------------------------


def test_hints_in_a_claim_window_name_the_expert_figures_as_points() -> None:
    seen = 0
    for seed in range(8):
        c = Controller("gb", seed, "hard", hands=1)
        c.start_hand()
        person = ScriptedPerson(claims=())
        while not c.hand_over and seen < 3:
            c.run_bots()
            if c.hand_over:
                break
            obs = c.observation()
            h = compute_hints(c)
            e = h.explanation
            text = hint_text(c, ascii=True, hints=h).plain
            # Percentages are chances: never above 100.
            assert all(int(p) <= 100 for p in re.findall(r"(\d+)%", text)), text
            assert not re.search(r"\b0\.00\b(?! pts)", text.replace("0.00,", "")), text
            if obs.phase == "claim" and e is not None and e.mode == "lookahead":
                seen += 1
                assert "win worth" in text and "chance" not in text
                # The options in the advisor's order, the pass first, the choice marked.
                rows = [line for line in text.splitlines() if ": win worth" in line]
                assert len(rows) == len(e.claims) and "pass" in rows[0]
                assert any(line.lstrip().startswith(">") for line in rows)
            c.act(person.act(obs, c.rules))
        if seen >= 3:
            break
    assert seen, "no claim window decided by the expert's lookahead in seeds 0-7"


# ---- help, settings, statistics --------------------------------------------------------


@pytest.mark.parametrize("rules", ["gb", "classic", "huainan"])
def test_help_shows_the_keys_the_rules_and_the_fan_table(rules: str) -> None:
    async def go() -> None:
        app = app_for(11, rules=rules)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            body = app.screen.query_one("#help-body")
            keys = text_of(body.content)
            assert "this help" in keys and "settings" in keys and "!" in keys
            await pilot.press("2")
            text = text_of(body.content, width=200)
            rs = mj.RuleSet(rules)
            assert mj.rules.entry(rules)["title"] in text
            for name in rs.options():
                assert name in text
            if rs.unit == "fan":
                assert f"at least {rs.options()['min_fan']} fans" in text
            await pilot.press("3")
            text = text_of(body.content, width=200)
            if rs.unit == "fan":
                names = [f["name"] for f in mj.fan_catalog() if f["name"] != "Declared Ready"]
                assert all(n in text for n in names)
                assert ("Declared Ready" in text) == bool(rs.options()["ready_fan"])
            else:
                assert "清碰碰糊" in text and "飞宝" in text
            await pilot.press("4")
            assert "data directory" in text_of(body.content)
            await pilot.press("escape")
            assert isinstance(app.screen, GameScreen)

    run(go())


def test_settings_change_at_once_and_are_kept_between_runs(tmp_path: Any) -> None:
    async def go() -> None:
        app = app_for(2, level="hard", data_dir=str(tmp_path))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("o")
            await pilot.pause()
            assert isinstance(app.screen, SettingsScreen)
            await pilot.press("down", "right")  # hints on
            await pilot.press("down", "right")  # explain on
            await pilot.press("down", "right", "right")  # colours: full -> basic -> none
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, GameScreen)
            panel = app.screen.query_one("#hints")
            assert panel.has_class("-shown") and "why:" in text_of(panel.content)
            assert any(isinstance(f, Monochrome) for f in app.get_line_filters())

    run(go())
    set_colours("full")
    saved = json.loads((tmp_path / "settings.json").read_text())
    assert saved == {"level": "hard", "hints": True, "explain": True, "colours": "none"}
    assert Store(tmp_path).settings() == Settings("hard", True, True, "none")


def test_every_finished_hand_goes_to_the_statistics(tmp_path: Any) -> None:
    async def go() -> None:
        app = app_for(5, hands=2, data_dir=str(tmp_path))
        async with app.run_test(size=SIZE) as pilot:
            await play_until(pilot, app, ScriptedPerson(), lambda s: isinstance(s, StandingsScreen))
            results = [h.result for h in app.controller.record.hands]
            stats = Store(tmp_path).stats()
            assert [s.hand for s in stats] == [1, 2]
            for s, result in zip(stats, results, strict=True):
                assert s.delta == result["deltas"][0]
                assert s.won == any(w["seat"] == 0 for w in result["wins"])
                assert s.match == app.match_id and s.level == "easy" and s.seed == 5
            summary = summarize(stats)["gb"]
            assert summary.hands == 2 and len(summary.matches) == 1
            assert summary.points == sum(r["deltas"][0] for r in results)
            await pilot.press("s")
            assert isinstance(app.screen, HelpScreen)
            text = text_of(app.screen.query_one("#help-body").content)
            assert "1 matches" in text and "Points per hand" in text

    run(go())


def test_the_chart_draws_each_match_above_or_below_the_zero_line() -> None:
    rows = bar_chart([4.0, -2.0, 0.0, 1.0], height=2)
    assert len(rows) == 5 and rows[2] == "─" * 4
    assert rows[0][0] == "█" and rows[1][0] == "█"  # the largest fills its side
    assert rows[3][1] == "█" and rows[4][1] == " "  # -2 is half of 4: one row down
    assert all(r[2] == " " for i, r in enumerate(rows) if i != 2)
    assert bar_chart([3.0, -3.0], height=1, ascii=True) == ["# ", "--", " #"]
    assert bar_chart([], height=1) == ["", "", ""]


# ---- keys ------------------------------------------------------------------------------


def test_space_does_not_skip_the_fan_table() -> None:
    async def go() -> None:
        app = app_for(11)
        async with app.run_test(size=SIZE) as pilot:
            await play_until(pilot, app, ScriptedPerson(), lambda s: isinstance(s, ResultScreen))
            await pilot.press("space")
            await pilot.pause()
            assert isinstance(app.screen, ResultScreen)
            await pilot.press("enter")
            await pilot.pause()
            assert not isinstance(app.screen, ResultScreen)

    run(go())


def test_the_footer_keeps_log_help_settings_and_quit_at_80_columns() -> None:
    async def go() -> None:
        app = app_for(11)
        async with app.run_test(size=SMALL) as pilot:
            await pilot.pause()
            keys = text_of(app.screen.query_one("#keys").content, width=80).strip()
            assert len(keys) <= 78
            for piece in ("l log", "? help", "o settings", "t [ ] hints", "q quit"):
                assert piece in keys, keys

    run(go())


def _classic_log(seed: int, person: ScriptedPerson) -> list[str]:
    """The action log of the first hand of a classic match played by `person`."""
    c = Controller("classic", seed, "easy", hands=1)
    log = ActionLog(["You", "Right", "Across", "Left"], ascii=False)
    c.start_hand()
    log.start_hand(1, 1, c.round.dealer)  # type: ignore[union-attr]
    while not c.hand_over:
        for move in iter(c.step_bots, None):
            log.add(move.seat, move.action, move.events)
        if c.hand_over:
            break
        move = c.act(person.act(c.observation(), c.rules))
        log.add(move.seat, move.action, move.events)
    return [line.text.plain for line in log.lines]


def test_the_automatic_discard_after_declaring_ready_says_so() -> None:
    person = ScriptedPerson(ready=True, claims=())
    seed = find_seed(lambda g: g.took("ready"), rules="classic", person=person, seeds=range(300))
    assert seed is not None
    lines = _classic_log(seed, person)
    auto = [line for line in lines if line.startswith("You discard") and "automatic" in line]
    chosen = [line for line in lines if line.startswith("You discard") and "automatic" not in line]
    assert auto, lines
    assert all("报听" in line for line in auto)
    # The discards the person chose are not marked, the one declaring ready among them.
    assert chosen and any("declare ready" in line for line in chosen)
    assert lines.index(next(x for x in chosen if "declare ready" in x)) < lines.index(auto[0])
