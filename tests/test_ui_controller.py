"""The parts of the terminal game that need no screen: levels, the controller, the
scripted person, hints and the tables of the result screen."""

from __future__ import annotations

import io

import pytest

pytest.importorskip("textual")

from rich.console import Console  # noqa: E402

import majiang as mj  # noqa: E402
from majiang.cli import build_parser  # noqa: E402
from majiang.ui.controller import (  # noqa: E402
    PERSON,
    Controller,
    bot_class_for_level,
    relative_seat,
)
from majiang.ui.hints import compute_hints, patterns, unseen_counts  # noqa: E402
from majiang.ui.scenarios import ScriptedPerson, play_hand  # noqa: E402
from majiang.ui.screens import fan_table, settlement_table  # noqa: E402


def render(renderable: object) -> str:
    console = Console(width=120, file=io.StringIO(), record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_levels_pick_the_best_bot_available() -> None:
    assert bot_class_for_level("easy") is mj.bots.RandomBot
    normal = bot_class_for_level("normal")
    hard = bot_class_for_level("hard")
    if hasattr(mj.bots, "EfficiencyBot"):
        assert normal is mj.bots.EfficiencyBot
    else:
        assert normal is mj.bots.RandomBot
    best = next(
        getattr(mj.bots, n)
        for n in ("ExpertBot", "StrongBot", "EfficiencyBot", "RandomBot")
        if hasattr(mj.bots, n)
    )
    assert hard is best
    with pytest.raises(ValueError, match="unknown level"):
        bot_class_for_level("expert")


@pytest.mark.parametrize(
    ("level", "advisor"),
    [("hard", "ExpertBot"), ("normal", "EfficiencyBot"), ("easy", "EfficiencyBot")],
)
def test_hints_come_from_the_bot_the_level_plays(level: str, advisor: str) -> None:
    c = Controller("gb", 3, level, hands=1)
    assert type(c.advisor).__name__ == advisor
    if level != "easy":
        # The same bot as the opponents.
        assert type(c.advisor) is type(c.bots[1])
    c.start_hand()
    c.run_bots()
    h = compute_hints(c)
    assert h.advisor == advisor and h.suggestion in c.legal_actions()


def test_hints_in_huainan_at_hard_level_give_the_expert_choice_without_reasons() -> None:
    # The expert plays huainan by a policy that does not explain: its choice is still
    # the advice.
    c = Controller("huainan", 3, "hard", hands=1)
    c.start_hand()
    c.run_bots()
    h = compute_hints(c)
    assert h.advisor == "ExpertBot" and h.explanation is None
    assert h.suggestion in c.legal_actions()


def test_seats_as_the_person_sees_them() -> None:
    assert [relative_seat(s) for s in range(4)] == ["You", "Right", "Across", "Left"]


def test_controller_rejects_bad_setups() -> None:
    with pytest.raises(ValueError, match="three bots"):
        Controller("gb", 1, bots=[mj.bots.RandomBot()])
    with pytest.raises(ValueError, match="seed"):
        Controller("gb", -1)


def test_controller_hides_other_hands_until_the_end() -> None:
    c = Controller("gb", 3, "easy", hands=1)
    c.start_hand()
    assert len(c.hand_of(PERSON)) == 14
    with pytest.raises(RuntimeError, match="only when the hand is over"):
        c.hand_of(1)


def test_a_scripted_hand_is_the_same_every_time() -> None:
    a = play_hand(17)
    b = play_hand(17)
    assert a.taken == b.taken and a.result == b.result
    assert sum(a.result["deltas"]) == 0


def test_record_of_a_match_replays(tmp_path: object) -> None:
    c = Controller("gb", 9, "easy", hands=2)
    person = ScriptedPerson()
    while not c.match_over:
        c.start_hand()
        while not c.hand_over:
            c.run_bots()
            if not c.hand_over:
                c.act(person.act(c.observation(), c.rules))
        c.finish_hand()
    path = tmp_path / "m.jsonl"  # type: ignore[operator]
    c.save_record(str(path))
    rec = mj.MatchRecord.from_json(path.read_text())
    assert rec.final_scores == c.scores
    assert [h.index for h in rec.hands] == [0, 1]
    mj.replay_record(rec)


def test_hints_match_the_oracle() -> None:
    c = Controller("gb", 21, "easy", hands=1)
    c.start_hand()
    c.run_bots()
    obs = c.observation()
    h = compute_hints(c)
    assert h.shanten == mj.shanten(obs.hand, rules="gb")
    unseen = unseen_counts(obs)
    assert all(0 <= n <= 4 for n in unseen)
    best = h.discards[0]
    rest = list(obs.hand)
    rest.remove(best.tile)
    assert best.shanten == mj.shanten(rest, rules="gb")
    assert [t for t, _ in best.useful] == mj.useful_tiles(rest, rules="gb")
    assert all(o.shanten >= best.shanten for o in h.discards)


def test_fan_table_lists_every_fan_and_the_total() -> None:
    win = {
        "fans": [
            {"name": "All Pungs", "name_zh": "碰碰和", "points": 6, "count": 1},
            {"name": "Dragon Pung", "name_zh": "箭刻", "points": 2, "count": 2},
        ],
        "fan_total": 12,
        "flowers": 2,
    }
    text = render(fan_table(win))
    for word in ("碰碰和", "All Pungs", "箭刻", "Dragon Pung", "Flower Tiles", "Total"):
        assert word in text
    assert "12" in text and "4" in text


def test_settlement_table_shows_every_seat() -> None:
    from majiang.ui.screens import HandView

    view = HandView(
        number=1,
        n_hands=16,
        rules="gb",
        names=["You", "Right", "Across", "Left"],
        winds=[0, 1, 2, 3],
        dealer=0,
        prevalent_wind=0,
        result={"deltas": [-21, 37, -8, -8], "penalties": [0, 0, 0, 0], "wins": []},
        scores_before=[0, 0, 0, 0],
        scores_after=[-21, 37, -8, -8],
    )
    text = render(settlement_table(view))
    for word in ("You", "Right", "Across", "Left", "-21", "+37", "-8"):
        assert word in text


def test_play_command_options() -> None:
    args = build_parser().parse_args(
        [
            "play",
            "--rules",
            "classic",
            "--seed",
            "5",
            "--level",
            "hard",
            "--ascii",
            "--record",
            "x.jsonl",
        ]
    )
    assert (args.rules, args.seed, args.level, args.ascii, args.record) == (
        "classic",
        5,
        "hard",
        True,
        "x.jsonl",
    )
    with pytest.raises(SystemExit):
        build_parser().parse_args(["play", "--level", "expert"])


def test_bots_that_plan_for_rules_get_the_games_rules() -> None:
    from majiang.ui.controller import make_bot

    class Planner:
        def __init__(self, seed: int | None = None, rules: object = "gb") -> None:
            self.seed, self.rules = seed, rules

    class Plain:
        def __init__(self, seed: int | None = None) -> None:
            self.seed = seed

    classic = mj.RuleSet("classic")
    assert make_bot(Planner, 5, classic).rules is classic
    assert make_bot(Plain, 5, classic).seed == 5
    c = Controller(classic, 3, "normal", hands=1)
    assert len(c.bots) == 4 and c.bots[0] is None


@pytest.mark.parametrize(
    ("hand", "seat_wind", "prevalent_wind", "want"),
    [
        # Eleven tiles of characters and two of dots: the full flush plan.
        ("11235678999m15p", 0, 0, ["Full Flush"]),
        ("113355779m1155z", 1, 2, ["Seven Pairs"]),
        # A plain hand keeps its honor pungs: east is both winds for the East seat in the
        # East round, and the red dragon.
        ("123m55p789s11555z", 0, 0, ["Prevalent Wind", "Seat Wind", "Dragon Pung"]),
    ],
)
def test_hints_head_for_the_strong_policys_plan_named_by_the_catalog(
    hand: str, seat_wind: int, prevalent_wind: int, want: list[str]
) -> None:
    plan = mj._core.fan_plan(hand, seat_wind=seat_wind, prevalent_wind=prevalent_wind)
    got = patterns(
        mj.parse_tiles(hand), [], rules="gb", seat_wind=seat_wind, prevalent_wind=prevalent_wind
    )
    catalog = {f["id"]: f for f in mj.fan_catalog()}
    assert got == [
        (catalog[i]["name_zh"], catalog[i]["name"], catalog[i]["points"]) for i in plan["fans"]
    ]
    assert [en for _, en, _ in got] == want
