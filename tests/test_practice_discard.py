"""何切 practice (majiang practice --mode discard): a real discard decision from an
engine-played game, graded against the expert's values."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import majiang as mj
from majiang.coach.discard import DiscardExercise, discard_exercise
from majiang.coach.practice import MODES, generate
from majiang.coach.store import Store


@pytest.fixture(scope="module")
def gb3() -> DiscardExercise:
    return discard_exercise("gb", 3, samples=8)


@pytest.mark.parametrize("rules", ["gb", "classic"])
def test_the_exercise_is_a_real_discard_decision(rules: str) -> None:
    ex = discard_exercise(rules, 1, samples=4)
    n_melds = len(ex.melds[ex.seat])
    assert len(ex.hand) == 14 - 3 * n_melds
    assert ex.choices == sorted(set(ex.hand)) and len(ex.choices) >= 4
    assert {o.action.kind for o in ex.values} <= {"discard", "ready"}
    assert 20 <= ex.wall <= 72
    melds = [mj.Meld(k, t) for k, t in ex.melds[ex.seat]] if n_melds else None
    assert 0 <= mj.shanten(ex.hand, melds, rules=rules) <= 2
    assert ex.drawn is None or ex.drawn in ex.hand
    assert ex.values.expert_action.kind in ("discard", "ready")
    assert ex.explanation.startswith(str(ex.values.expert_action))
    assert sum(len(d) for d in ex.discards) > 0


def test_the_seed_fixes_the_exercise() -> None:
    a = discard_exercise("gb", 5, samples=3)
    assert a.to_dict() == discard_exercise("gb", 5, samples=3).to_dict()
    assert a.to_dict() != discard_exercise("gb", 6, samples=3).to_dict()


def test_grading_follows_the_values(gb3: DiscardExercise) -> None:
    ex = gb3
    expert = ex.values.expert_action
    g = ex.grade(expert.tile, declare=expert.kind == "ready")
    assert g.right and g.credit == 1
    assert any("Why the expert plays" in line for line in g.lines)
    best = ex.values.best.action
    assert ex.grade(best.tile, declare=best.kind == "ready").credit == 1
    for o in ex.values:
        if o.expert or o.loss == 0 or o.action.kind != "discard":
            continue
        g = ex.grade(o.action.tile)
        assert g.credit == (0.0 if o.clearly_worse else 0.5) and not g.right
        assert any(f"You lose {o.loss:.2f}" in line for line in g.lines)


def test_a_tile_not_in_the_hand_or_an_impossible_declaration_is_an_error(
    gb3: DiscardExercise,
) -> None:
    missing = next(t for t in range(34) if t not in gb3.hand)
    with pytest.raises(mj.InvalidArgumentError, match="cannot discard"):
        gb3.grade(missing)
    with pytest.raises(mj.InvalidArgumentError, match="cannot declare ready"):
        gb3.grade(gb3.hand[0], declare=True)


def test_huainan_is_refused_with_the_reason() -> None:
    with pytest.raises(mj.InvalidArgumentError, match="gb and classic"):
        discard_exercise("huainan", 0)
    assert "discard" in MODES
    assert isinstance(generate("discard", "classic", 2), DiscardExercise)


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "majiang", "practice", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )


def test_the_cli_prints_a_discard_exercise_and_refuses_huainan() -> None:
    done = _cli("--json", "--mode", "discard", "--seed", "2", "--rules", "classic")
    assert done.returncode == 0, done.stderr
    d = json.loads(done.stdout)
    ex = discard_exercise("classic", 2)
    assert d == json.loads(json.dumps(ex.to_dict(), ensure_ascii=False))
    assert d["mode"] == "discard" and d["values"]["options"]
    done = _cli("--mode", "discard", "--rules", "huainan")
    assert done.returncode == 2
    assert done.stderr.startswith("majiang practice: --mode discard")
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_discard_answered_on_screen_is_graded_and_the_score_kept(tmp_path: Path) -> None:
    pytest.importorskip("textual")
    from majiang.ui.practice import PracticeApp, discard_order

    async def go() -> None:
        app = PracticeApp("discard", "gb", seed=3, data_dir=str(tmp_path))
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            screen = app.practice
            ex: DiscardExercise = screen.exercise
            order = discard_order(ex)
            want = order.index(ex.values.expert_action.tile)
            while screen.answer.cursor != want:
                await pilot.press("left")
            await pilot.press("enter")
            await pilot.pause()
            assert screen.grade is not None and screen.grade.right
            await pilot.press("q")

    asyncio.run(go())
    saved = Store(tmp_path).practice_score("discard", "gb")
    assert (saved.tried, saved.right, saved.seed) == (1, 1, 4)


def test_scores_of_the_discard_mode_are_listed(tmp_path: Path) -> None:
    store = Store(tmp_path)
    score = store.practice_score("discard", "gb")
    score.add(0.5, 7)
    store.save_practice_score("discard", "gb", score)
    done = _cli("--scores", "--data-dir", str(tmp_path), env=dict(os.environ))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("discard") and "0.5 of 1" in done.stdout
