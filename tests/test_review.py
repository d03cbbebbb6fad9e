"""majiang review: every decision of a seat in a recorded game valued by the expert."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import majiang as mj
from majiang.bots import EfficiencyBot, StrongBot
from majiang.coach.review import default_seat, load_game, review
from majiang.coach.review_html import render_html
from majiang.record import MatchRecord, hand_round, replay_moves

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def record_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A two-hand gb match: an efficiency bot at seat 0 against strong bots."""
    path = tmp_path_factory.mktemp("review") / "gb.jsonl"
    bots = [EfficiencyBot(seed=1), StrongBot(seed=2), StrongBot(seed=3), StrongBot(seed=4)]
    mj.Game("gb", bots, seed=11, hands=2, record_path=path).play()
    return path


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "majiang", "review", *args],
        capture_output=True,
        text=True,
        timeout=600,
    )


def _choices(rec: MatchRecord, seat: int) -> list[tuple[int, mj.Action]]:
    """Every (hand, action played) of ``seat`` at a decision with a choice."""
    out: list[tuple[int, mj.Action]] = []
    rules = rec.rule_set()
    for h in rec.hands:
        r = hand_round(rules, h)

        def before(s: int, a: mj.Action, r: mj.Round = r, i: int = h.index) -> None:
            if s == seat and len(r.observation(s).legal_actions) > 1:
                out.append((i, a))

        for _ in replay_moves(r, h, before=before):
            pass
    return out


def test_every_decision_with_a_choice_is_reviewed_as_played(record_path: Path) -> None:
    rec = load_game(record_path)
    rv = review(rec, 2, samples=2, playout="efficiency")
    ds = rv.decisions
    assert [(d.hand, d.played) for d in ds] == _choices(rec, 2)
    assert all(d.seat == 2 for d in ds)
    for d in ds:
        assert d.played in [o.action for o in d.values]
        assert d.loss == pytest.approx(d.best.points - d.played_value.points)
        assert d.gap == pytest.approx(d.values.value_of(d.expert).points - d.played_value.points)
        assert d.agrees == (d.played == d.values.expert_action)
    s = rv.summary
    assert s["decisions"] == len(ds) > 0
    assert s["agreement"] == round(100 * sum(d.agrees for d in ds) / len(ds), 1)
    assert s["points_lost"] == pytest.approx(sum(d.loss for d in ds), abs=0.01)
    assert s["score_change"] == sum(h.deltas[2] for h in rec.hands)
    losses = [d.loss for d in rv.mistakes()]
    assert losses == sorted(losses, reverse=True) and all(x > 0 for x in losses)
    assert all(d.clear for d in rv.mistakes(clear_only=True))


def test_wins_and_deal_ins_follow_the_record(record_path: Path) -> None:
    rec = load_game(record_path)
    for seat in range(4):
        rv = review(rec, seat, samples=2, playout="efficiency")
        for h, hr in zip(rec.hands, rv.hands, strict=True):
            assert hr.won == (seat in h.winners)
            if hr.dealt_in:
                assert hr.delta < 0 and seat not in h.winners


def test_the_review_is_fixed_by_its_seed(record_path: Path) -> None:
    rec = load_game(record_path)
    a = review(rec, 0, samples=2, seed=5, playout="efficiency", hands=[0])
    b = review(rec, 0, samples=2, seed=5, playout="efficiency", hands=[0])
    assert a.as_dict() == b.as_dict()
    assert [h.index for h in a.hands] == [0]


def test_the_default_seat_is_the_persons() -> None:
    rec = MatchRecord(rules="gb", options={}, seed=0, n_hands=1, players=["a", "b", "c", "d"])
    assert default_seat(rec) == 0
    rec.players = ["Bot", "Bot", "Person", "Bot"]
    assert default_seat(rec) == 2


def test_a_bad_seat_is_an_error(record_path: Path) -> None:
    with pytest.raises(mj.InvalidArgumentError, match="seat"):
        review(load_game(record_path), 4)


def test_cli_text_report(record_path: Path) -> None:
    done = _cli(str(record_path), "--samples", "2", "--hand", "1")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("Review of seat 0 (EfficiencyBot), gb, 1 hand")
    assert "Summary" in out and "agreement with the expert" in out
    assert "2 sampled deals" in out and "95% interval" in out
    assert "Hand 1:" in out and "Hand 2:" not in out


def test_cli_json_matches_the_library(record_path: Path) -> None:
    done = _cli(str(record_path), "--json", "--samples", "2", "--seat", "1", "--seed", "3")
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    want = review(load_game(record_path), 1, samples=2, seed=3).as_dict()
    want["source"] = str(record_path)
    assert got == json.loads(json.dumps(want))
    assert got["format"] == "majiang-review" and got["seat"] == 1
    d = got["hands"][0]["decisions"][0]
    assert {"played", "expert", "best", "loss", "values"} <= set(d)
    assert d["values"]["playout_bot"] == "expert"


def test_cli_html_is_self_contained_and_escapes_names(record_path: Path, tmp_path: Path) -> None:
    rec = MatchRecord.load(record_path)
    rec.players = ["<script>alert(1)</script>", "b", "c", "d"]
    hostile = tmp_path / "hostile.jsonl"
    rec.save(hostile)
    out = tmp_path / "review.html"
    done = _cli(str(hostile), "--samples", "2", "--hand", "2", "--html", str(out))
    assert done.returncode == 0, done.stderr
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)" in page
    for outside in ("http://", "https://", "<link", "src=", "@import", "url("):
        assert outside not in page
    assert 'class="t ' in page and any(suit in page for suit in "万筒条")
    assert "next mistake" in page


def test_cli_reviews_a_botzone_log() -> None:
    done = _cli(str(DATA / "real" / "botzone.json"), "--json", "--samples", "2")
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert got["method"]["shared_wall"] is True
    assert got["summary"]["decisions"] > 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seat", "4"], "--seat must be 0-3, got 4"),
        (["--seat", "-1"], "--seat must be 0-3, got -1"),
        (["--samples", "1"], "--samples must be 2 to 100,000"),
        (["--hand", "9"], "no hand 9 in the record"),
        (["--seed", "-2"], "--seed must be a whole number"),
    ],
)
def test_cli_bad_options_are_one_line_errors(
    record_path: Path, args: list[str], message: str
) -> None:
    done = _cli(str(record_path), *args)
    assert done.returncode == 2
    assert done.stderr.startswith("majiang review: ") and message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and done.stdout == ""


def test_cli_bad_files_are_one_line_errors(record_path: Path, tmp_path: Path) -> None:
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(record_path.read_bytes()[:1500])
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    junk = tmp_path / "junk.bin"
    junk.write_bytes(bytes(range(256)) * 8)
    not_a_log = tmp_path / "log.json"
    not_a_log.write_text('{"log": 5}')
    cases = [
        (tmp_path / "missing.jsonl", "cannot read"),
        (cut, "cut"),
        (empty, "empty"),
        (junk, "line 1"),
        (tmp_path, "directory"),
        (not_a_log, ""),
    ]
    if Path("/dev/zero").exists():
        cases.append((Path("/dev/zero"), "longer than"))
    for path, message in cases:
        done = _cli(str(path))
        assert done.returncode == 2, (path, done.stderr)
        assert done.stderr.startswith("majiang review: "), done.stderr
        assert message in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
        assert "Traceback" not in done.stderr


def test_cli_a_record_the_engine_does_not_reproduce(record_path: Path, tmp_path: Path) -> None:
    rec = MatchRecord.load(record_path)
    h = rec.hands[0]
    events = [json.loads(e) for e in h.events_json]
    k = next(i for i, e in enumerate(events) if e["type"] == "discard")
    events[k]["tile"] = (events[k]["tile"] + 1) % 27
    h.events_json = [json.dumps(e, sort_keys=True) for e in events]
    h._events = None
    bad = tmp_path / "bad.jsonl"
    rec.save(bad)
    done = _cli(str(bad), "--samples", "2")
    assert done.returncode == 1, done.stderr
    assert "does not reproduce" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_cli_huainan_is_refused_with_the_reason(tmp_path: Path) -> None:
    path = tmp_path / "huainan.jsonl"
    mj.Game(
        "huainan", [EfficiencyBot(seed=s) for s in range(4)], seed=2, hands=1, record_path=path
    ).play()
    done = _cli(str(path), "--samples", "2")
    assert done.returncode == 2
    assert "宝" in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_render_html_draws_the_tiles_of_each_decision(record_path: Path) -> None:
    rv = review(load_game(record_path), 0, samples=2, playout="efficiency", hands=[0])
    page = render_html(rv)
    for d in rv.decisions:
        assert f'id="h1-{d.number}"' in page
    assert page.count('class="dec ') == len(rv.decisions)


def test_a_classic_game_is_reviewed(tmp_path: Path) -> None:
    path = tmp_path / "classic.jsonl"
    bots = [EfficiencyBot(seed=s) for s in range(4)]
    mj.Game("classic", bots, seed=12, hands=1, record_path=path).play()
    rec = load_game(path)
    rv = review(rec, 1, samples=2, playout="efficiency")
    assert [(d.hand, d.played) for d in rv.decisions] == _choices(rec, 1)
    assert rv.rules == "classic" and not rv.shared_wall


def test_cli_a_record_without_a_finished_hand_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "none.jsonl"
    MatchRecord(rules="gb", options={}, seed=0, n_hands=1, players=list("abcd")).save(path)
    done = _cli(str(path))
    assert done.returncode == 2
    assert "holds no finished hand" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_seat_the_expert_played_agrees_with_the_expert(tmp_path: Path) -> None:
    """The review's expert is the bot that played: every decision agrees, and none is
    behind the expert's choice."""
    path = tmp_path / "expert.jsonl"
    bots = [mj.bots.ExpertBot(seed=1), StrongBot(seed=2), StrongBot(seed=3), StrongBot(seed=4)]
    mj.Game("gb", bots, seed=21, hands=1, record_path=path).play()
    rv = review(load_game(path), 0, samples=2, playout="efficiency")
    assert rv.summary["decisions"] > 0
    assert rv.summary["agreement"] == 100.0 and rv.summary["behind_expert"] == 0
