"""simulate(): determinism, invariants over 100,000 hands, results and errors."""

import json

import numpy as np
import pytest

import majiang as mj
from majiang import _core
from majiang.cli import main


def test_same_seed_same_arrays_whatever_the_threads():
    a = mj.simulate(600, bots="efficiency", seed=7, threads=1)
    b = mj.simulate(600, bots="efficiency", seed=7, threads=2)
    c = mj.simulate(600, bots="efficiency", seed=7, threads=2, progress=True)
    assert a.equals(b) and a.equals(c)
    d = mj.simulate(600, bots="efficiency", seed=8, threads=2)
    assert not a.equals(d)


def test_shards_concatenate_to_the_single_run():
    whole = _core.simulate_hands(500, rules="gb", bots=["random"] * 4, seed=3)
    first = _core.simulate_hands(200, rules="gb", bots=["random"] * 4, seed=3, start=0)
    rest = _core.simulate_hands(300, rules="gb", bots=["random"] * 4, seed=3, start=200)
    for k, v in whole.items():
        assert np.array_equal(v, np.concatenate([first[k], rest[k]])), k


def test_tables_of_random_seats_give_the_same_hands_over_many_blocks():
    # Tables of four random seats take blocks of 512 hands: runs of two threads, and
    # shards that start inside a block, give the hands of one thread's run.
    one = _core.simulate_hands(2000, rules="gb", bots=["random"] * 4, seed=11, threads=1)
    two = _core.simulate_hands(2000, rules="gb", bots=["random"] * 4, seed=11, threads=2)
    parts = [
        _core.simulate_hands(n, rules="gb", bots=["random"] * 4, seed=11, start=s, threads=2)
        for s, n in ((0, 513), (513, 1), (514, 1486))
    ]
    for k, v in one.items():
        assert np.array_equal(v, two[k]), k
        assert np.array_equal(v, np.concatenate([p[k] for p in parts])), k


@pytest.mark.parametrize(
    ("rules", "bots", "n"),
    [
        ("gb", "random", 45_000),
        ("gb", "efficiency", 30_000),
        ("gb", "efficiency,random,efficiency,random", 10_000),
        ("classic", "efficiency,efficiency,random,random", 15_000),
    ],
)
def test_invariants_over_100000_hands(rules, bots, n):
    """Every state of every hand is checked in Rust: each tile of the wall is in exactly one
    place, no kind has more than four copies, no seat holds more than 14 tiles (melds as
    three), every action applied was legal, every win is a complete hand reaching the
    minimum fan, and each hand's scores sum to zero."""
    r = _core.simulate_hands(n, rules=rules, bots=bots.split(","), seed=2026, check=True)
    assert r["violations"] == 0, r["violation_examples"]
    assert r["scores"].sum(axis=1).tolist() == [0] * n
    won = r["winner"] >= 0
    if rules == "gb":
        assert (r["fan_total"][won] >= 8).all()
    assert (r["fan_total"][~won] == 0).all()
    assert ((r["discarder"] >= -1) & (r["discarder"] <= 3)).all()
    assert (r["discarder"][~won] == -1).all()
    assert (r["discarder"][won] != r["winner"][won]).all()
    # The winner gains, and a discarder pays the most.
    rows = np.flatnonzero(won)
    assert (r["scores"][rows, r["winner"][rows]] > 0).all()
    dealt = rows[r["discarder"][rows] >= 0]
    assert (r["scores"][dealt, r["discarder"][dealt]] == r["scores"][dealt].min(axis=1)).all()


def test_efficiency_bots_win_in_gb_and_beat_random():
    eff = mj.simulate(2_000, bots="efficiency", seed=1).summary()
    rnd = mj.simulate(2_000, bots="random", seed=1).summary()
    assert eff["win_rate"] > 0.3
    assert eff["win_rate"] > 10 * rnd["win_rate"]
    assert eff["mean_fan"] >= 8


def test_summary_and_save_load(tmp_path):
    r = mj.simulate(300, bots="efficiency", seed=5)
    s = r.summary()
    assert s["hands"] == 300 == len(r)
    assert s["wins"] == int((r.winner >= 0).sum())
    assert sum(s["fan_histogram"].values()) == s["wins"]
    assert abs(s["win_rate"] + s["exhaustive_draw_rate"] - 1) < 1e-9
    assert s["top_fans"] and all(0 < share <= 1 for *_, share in s["top_fans"])
    names = {en for en, *_ in s["top_fans"]}
    assert names <= {en for en, _ in r.fan_names().values()}
    text = r.format_summary()
    assert "win rate" in text and "most frequent fans" in text
    path = tmp_path / "r.npz"
    r.save(str(path))
    back = mj.SimResult.load(str(path))
    assert back.equals(r) and back.seed == 5 and back.bots == ["efficiency"] * 4
    assert r.scores.shape == (300, 4) and r.fans.shape == (300, 16)


def test_zero_hands():
    r = mj.simulate(0)
    assert len(r) == 0 and r.summary()["win_rate"] == 0.0


@pytest.mark.parametrize(
    ("kwargs", "exc", "text"),
    [
        ({"bots": "alphago"}, ValueError, "alphago"),
        ({"bots": ["random", "random"]}, ValueError, "four"),
        ({"rules": "riichi"}, ValueError, "riichi"),
        ({"seed": -1}, ValueError, "seed"),
        ({"seed": 2**64}, ValueError, "seed"),
        ({"threads": 0}, ValueError, "threads"),
        ({"seed": "x"}, TypeError, "seed"),
    ],
)
def test_bad_arguments_raise_clear_errors(kwargs, exc, text):
    with pytest.raises(exc, match=text):
        mj.simulate(10, **kwargs)


def test_negative_count():
    with pytest.raises(ValueError, match="n_hands"):
        mj.simulate(-1)


def test_cli_simulate(capsys, tmp_path):
    out = tmp_path / "x.npz"
    assert main(["simulate", "-n", "200", "-q", "--seed", "4", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "win rate" in text and "fan histogram" in text
    assert mj.SimResult.load(str(out)).equals(mj.simulate(200, seed=4))
    assert main(["simulate", "-n", "100", "-q", "--json", "--bots", "random"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hands"] == 100 and data["bots"] == ["random"] * 4
    assert main(["simulate", "-n", "10", "-q", "--bots", "nobody"]) == 2
    assert "nobody" in capsys.readouterr().err


def test_efficiency_bot_plays_python_games():
    bots = [mj.bots.EfficiencyBot(seed=i) for i in range(4)]
    rec = mj.Game("gb", bots=bots, seed=11, hands=4).play()
    assert sum(rec.final_scores) == 0
    rec2 = mj.Game("gb", bots=[mj.bots.EfficiencyBot(seed=i) for i in range(4)], seed=11, hands=4)
    assert rec2.play().to_json() == rec.to_json()
    classic = [mj.bots.EfficiencyBot(seed=i, rules="classic") for i in range(4)]
    rec3 = mj.Game("classic", bots=classic, seed=2, hands=4).play()
    assert sum(rec3.final_scores) == 0


def test_efficiency_bot_agrees_with_simulate_policy():
    """The Python bot runs the same Rust policy on the same view: at every decision of a
    hand it picks what the policy picks from the live round (the view simulate plays
    from), and it takes every win it is offered."""
    bot = mj.bots.EfficiencyBot(seed=0)
    live = _core.Policy("efficiency", rules="gb", seed=0)
    wins_offered = 0
    for seed in range(9, 15):
        r = mj.Round("gb", seed=seed)
        while r.pending:
            for s in r.pending:
                obs = r.observation(s)
                a = bot.act(obs)
                assert a == live._choose_live(r, s), (seed, s, obs)
                if mj.Action("win") in obs.legal_actions:
                    assert a == mj.Action("win")
                    wins_offered += 1
                r.apply(s, a)
        assert r.result is not None
    assert wins_offered > 0


def test_policy_rejects_bad_input():
    with pytest.raises(ValueError, match="unknown bot"):
        _core.Policy("genius")
    p = _core.Policy("random", seed=1)
    with pytest.raises(TypeError, match="observation must be a majiang.Observation"):
        p.choose(object())


def test_cli_simulates_and_arenas_huainan_in_its_own_units(capsys):
    assert main(["simulate", "-n", "60", "-q", "--rules", "huainan", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "rules huainan" in out and "mean value" in out and "value histogram" in out
    assert "mean fan" not in out and "most frequent fans" not in out
    bots = "strong,efficiency,efficiency,efficiency"
    assert main(["arena", "--bots", bots, "--hands", "8", "--rules", "huainan", "-q"]) == 0
    table = capsys.readouterr().out
    assert "rules huainan" in table and "mean 倍" in table and "mean fan" not in table
