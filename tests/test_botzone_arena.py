"""``mj.arena`` with Python bots: Botzone programs measured in duplicate against built-in
bots, on the walls the Rust arena plays."""

import json
import shlex
import sys
from pathlib import Path

import numpy as np
import pytest

import majiang as mj
from majiang import sim
from majiang.bots import BotzoneBot
from majiang.cli import main

SCRIPT = str(Path(__file__).parent / "data" / "botzone_pass_bot.py")
BOTZONE = mj.botzone.rules()


def program(*flags: str) -> BotzoneBot:
    return BotzoneBot([sys.executable, SCRIPT, *flags], time_limit=30)


@pytest.mark.parametrize(
    ("rules", "duplicate"), [("gb", True), (BOTZONE, True), ("classic", False)]
)
def test_the_python_arena_plays_the_rust_arenas_games(rules, duplicate):
    bots = ["efficiency", "random", "strong_lite", "efficiency"]
    rust = mj.arena(bots, hands=24, seed=7, rules=rules, duplicate=duplicate)
    names, objects = sim._arena_entries(bots)
    rule_set = rules if isinstance(rules, mj.RuleSet) else mj.RuleSet(rules)
    meta = {"rules": rule_set.name, "seed": 7, "duplicate": duplicate}
    py = sim._arena_python(
        24,
        seed=7,
        rules=rule_set,
        names=names,
        objects=objects,
        duplicate=duplicate,
        progress=False,
        meta=meta,
    )
    for c in ("wall", "seats", "winner", "discarder", "fan_total", "scores"):
        a, b = getattr(rust, c), getattr(py, c)
        assert a.dtype == b.dtype and np.array_equal(a, b), c


def test_a_botzone_program_plays_whole_hands_in_duplicate():
    bot = program()
    try:
        r = mj.arena(
            [bot, "efficiency", "efficiency", "efficiency"], hands=8, seed=1, rules=BOTZONE
        )
        assert len(r) == 8
        assert (r.wall == np.arange(8) // 4).all()
        assert (r.seats[:, 0] == np.arange(8) % 4).all()
        assert (r.scores.sum(axis=1) == 0).all()
        assert r.bots[0] == "botzone:botzone_pass_bot.py"
        assert r.invalid == [0, None, None, None]
        assert bot.answers > 8 * 20
        rows = r.summary()
        assert rows[0]["invalid"] == 0 and rows[1]["invalid"] is None
        assert "invalid" in r.format_table()
        # The built-in bots play the walls (and seats) the Rust arena gives them.
        rust = mj.arena(["random", "efficiency", "efficiency", "efficiency"], hands=8, seed=1)
        assert (rust.wall == r.wall).all() and (rust.seats == r.seats).all()
    finally:
        bot.close()


def test_invalid_answers_are_counted_per_bot():
    bad, good = program("--bad"), program()
    try:
        before = bad.illegal
        r = mj.arena(["random", bad, good, "efficiency"], hands=4, seed=2, rules=BOTZONE)
        assert r.invalid is not None
        assert r.invalid[1] == bad.illegal - before > 0
        assert r.invalid[2] == 0 and r.invalid[0] is None and r.invalid[3] is None
        # Every draw of the bad program was answered with a flower no move can name.
        assert r.invalid[1] >= 4
    finally:
        bad.close()
        good.close()


class Raises:
    def __init__(self, after: int, exc: type[BaseException] = ValueError):
        self.calls = 0
        self.after = after
        self.exc = exc

    def act(self, obs):
        self.calls += 1
        if self.calls > self.after:
            raise self.exc("no idea")
        return next(a for a in obs.legal_actions if a.kind in ("discard", "pass"))


class AlwaysWins:
    name = "liar"

    def act(self, obs):
        return mj.Action("kong", 0)


def test_a_bot_that_raises_is_named_with_the_games_finished():
    with pytest.raises(sim.ArenaBotError, match=r"bot 2 \(Raises\) raised ValueError") as info:
        mj.arena(["random", "random", Raises(after=60), "random"], hands=40, seed=3)
    e = info.value
    assert e.bot == 2 and e.name == "Raises" and e.game == len(e.partial) > 0
    assert isinstance(e.__cause__, ValueError)
    with pytest.raises(sim.ArenaBotError, match=r"bot 0 \(liar\) returned an illegal action"):
        mj.arena([AlwaysWins(), "random", "random", "random"], hands=4)


def test_ctrl_c_keeps_the_games_finished():
    with pytest.raises(KeyboardInterrupt) as info:
        mj.arena(["random", Raises(60, KeyboardInterrupt), "random", "random"], hands=40, seed=3)
    part = info.value.partial
    assert isinstance(part, sim.ArenaResult) and 0 < len(part) < 40
    n = len(part)
    again = mj.arena("random", hands=n, seed=3)
    assert (again.wall[:n] == part.wall).all() and (again.seats[:n] == part.seats).all()


def test_bad_entries():
    bot = Raises(0)
    with pytest.raises(ValueError, match="same object"):
        mj.arena([bot, "random", bot, "random"], hands=4)
    with pytest.raises(TypeError, match="bot 1 must be"):
        mj.arena(["random", 3, "random", "random"], hands=4)
    with pytest.raises(ValueError, match="unknown bot"):
        mj.arena(["random", "wizard", Raises(0), "random"], hands=4)
    with pytest.raises(ValueError, match="four entries"):
        mj.arena([Raises(0)], hands=4)


def test_cli_arena_seats_a_botzone_program(capsys):
    cmd = shlex.join([sys.executable, SCRIPT])
    assert main(["arena", "--botzone-cmd", cmd, "--hands", "4", "--rules", "botzone", "-q"]) == 0
    out = capsys.readouterr().out
    assert "botzone:botzone_pass_bot.py" in out and "invalid" in out
    bad = shlex.join([sys.executable, SCRIPT, "--bad"])
    args = ["arena", "--botzone-cmd", bad, "--bots", "random,botzone,random,random", "--json"]
    assert main([*args, "--hands", "4"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["bots"][1]["invalid"] > 0 and data["bots"][0]["invalid"] is None
    assert main(["arena", "--bots", "botzone,random,random,random", "--hands", "4"]) == 2
    assert "needs --botzone-cmd" in capsys.readouterr().err
    # A program that does not exist is refused before any game.
    assert main(["arena", "--botzone-cmd", "/no/such/bot", "--hands", "4", "-q"]) == 2
    assert "no program '/no/such/bot' to run" in capsys.readouterr().err
