"""StrongBot.explain and Policy.explain: the same action as ``act``, the figures behind
it (candidates, chances, danger, claim against pass, threats), the printed table, and the
errors."""

import pytest

import majiang as mj
from majiang import _core
from majiang.bots import EfficiencyBot, Explanation, StrongBot
from majiang.bots.explain import MODES
from roundkit import A, t
from roundkit import first_claim as claim
from roundkit import first_turn as turn


@pytest.mark.parametrize("rules", ["gb", "classic"])
def test_explaining_chooses_what_acting_chooses(rules):
    modes = set()
    for seed in range(3):
        r = mj.Round(rules, seed=seed)
        acting = [StrongBot(seed=s, rules=rules) for s in range(4)]
        explaining = [StrongBot(seed=s, rules=rules) for s in range(4)]
        while not r.is_over:
            s = r.pending[0]
            o = r.observation(s)
            a = acting[s].act(o)
            e = explaining[s].explain(o)
            assert e.action == a
            assert e.seat == s and e.mode in MODES
            modes.add(e.mode)
            r.apply(s, a)
    assert {"attack", "lookahead"} <= modes


def test_a_lookahead_discard_lists_the_candidates_with_their_figures():
    # 1p leaves a full flush waiting on every character.
    e = StrongBot(seed=1).explain(turn("1112345678999m1p"))
    assert isinstance(e, Explanation)
    assert e.action == A("discard", "1p") and e.mode == "lookahead"
    best = e.discards[0]
    assert best.tile == t("1p") and best.name == "1p"
    assert best.distance == 1 and best.fan >= 24 and best.useful > 0
    assert 0 < best.chance < 1 and best.danger == 0
    assert best.value is not None and best.plan
    assert all((d.chance or 0) < best.chance for d in e.discards[1:])
    assert {t.seat for t in e.threats} == {1, 2, 3}
    assert e.top(2) == list(e.discards[:2])


def test_a_claim_is_compared_with_the_pass():
    e = StrongBot(seed=1).explain(claim("111m999p55s77s223z", "5s"))
    assert e.action == A("pung", "5s") and e.mode == "lookahead"
    assert [c.action for c in e.claims] == [A("pass"), A("pung", "5s")]
    pass_, pung = e.claims
    assert pung.chance > (pass_.chance or 0)
    assert pung.discard == t("3z")
    text = str(e)
    assert "pung 5s" in text and "pass" in text and "then" in text


def test_the_table_shows_the_action_the_mode_and_the_top_candidates():
    e = StrongBot(seed=1).explain(turn("1112345678999m1p"))
    text = str(e)
    lines = text.splitlines()
    assert lines[0].startswith("discard 1p: the lookahead")
    assert "chance" in lines[1] and "danger" in lines[1] and "value" in lines[1]
    assert lines[2].lstrip().startswith("> 1p")
    assert "threat: seat 1 0% ready" in text
    assert len(e.table(rows=2).splitlines()) < len(e.table(rows=5).splitlines())
    named = e.table(names=["You", "Right", "Across", "Left"])
    assert "Right 0% ready" in named


def test_the_dict_binding_and_the_policy_class():
    o = turn("1112345678999m1p")
    d = _core.StrongPolicy(seed=1).explain(o)
    assert set(d) == {"action", "mode", "seat", "stake", "threats", "discards", "claims"}
    assert d["action"] in o.legal_actions
    assert set(d["discards"][0]) == {
        "tile",
        "plan",
        "distance",
        "fan",
        "useful",
        "chance",
        "danger",
        "attack",
        "value",
        "search",
    }
    for name in ("strong", "strong_lite"):
        p = _core.Policy(name, seed=1)
        assert p.explain(o)["action"] == _core.Policy(name, seed=1).choose(o)
    lite = _core.Policy("strong_lite", seed=1).explain(o)
    assert lite["mode"] == "attack"
    assert all(c["chance"] is None for c in lite["discards"])


def test_errors():
    o = turn("1112345678999m1p")
    for name in ("random", "efficiency"):
        with pytest.raises(ValueError, match=f"the {name} policy does not explain"):
            _core.Policy(name).explain(o)
    with pytest.raises(TypeError, match="majiang.Observation"):
        StrongBot().explain("1m")
    # A seat with nothing to decide.
    r = mj.Round("gb", seed=0)
    idle = r.observation(1)
    assert not idle.legal_actions
    with pytest.raises(mj.IllegalActionError):
        StrongBot().explain(idle)
    assert not hasattr(EfficiencyBot(), "explain")


def test_explain_command_walks_a_hand_of_four_strong_bots(capsys):
    from majiang.cli import main

    assert main(["explain", "--seed", "5", "--rows", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("[1] seat 0 (E), turn, wall 87: ")
    assert "the lookahead: chance of winning" in out
    assert "    > " in out and "threat: seat 1" in out
    assert out.rstrip().splitlines()[-1].startswith("hand over: seat 0 ")
    # The hand is the one the bots play with act.
    r = mj.Round("gb", 5)
    bots = [StrongBot(seed=s) for s in range(4)]
    while not r.is_over:
        s = r.pending[0]
        r.apply(s, bots[s].act(r.observation(s)))
    want = ", ".join(f"seat {s} {d:+d}" for s, d in enumerate(r.result["deltas"]))
    assert out.rstrip().endswith(want)


def test_explain_command_compares_a_recorded_hand(tmp_path, capsys):
    from majiang.cli import main

    path = tmp_path / "m.jsonl"
    mj.Game(
        rules="gb",
        bots=[EfficiencyBot(seed=i) for i in range(4)],
        seed=7,
        hands=1,
        record_path=path,
    ).play()
    assert main(["explain", str(path), "--rows", "1"]) == 0
    every = capsys.readouterr().out
    assert "played discard" in every and "(same)" in every
    assert main(["explain", str(path), "--differences"]) == 0
    diff = capsys.readouterr().out
    assert "(same)" not in diff and "(DIFFERENT)" in diff
    n = diff.count("(DIFFERENT)")
    assert f"in hand 1, {n} shown" in diff
    assert main(["explain", str(path), "--hand", "2"]) == 2
    assert "no hand 2" in capsys.readouterr().err
    assert main(["explain", str(tmp_path / "none.jsonl")]) == 2
    assert main(["explain", "--seat", "4"]) == 2
