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
from majiang._core import Policy
from majiang.bots import BotzoneBot, EfficiencyBot, ExpertBot, StrongBot
from majiang.cli import main

SCRIPT = str(Path(__file__).parent / "data" / "botzone_pass_bot.py")
BOTZONE = mj.botzone.rules()


def program(*flags: str) -> BotzoneBot:
    return BotzoneBot([sys.executable, SCRIPT, *flags], time_limit=30)


COLUMNS = ("wall", "seats", "winner", "discarder", "fan_total", "scores")


def same_games(a: mj.ArenaResult, b: mj.ArenaResult) -> bool:
    return all(
        getattr(a, c).dtype == getattr(b, c).dtype and np.array_equal(getattr(a, c), getattr(b, c))
        for c in COLUMNS
    )


@pytest.mark.parametrize(
    ("rules", "duplicate"),
    [("gb", True), ("gb", False), ("classic", True), ("huainan", True), (BOTZONE, True)],
)
def test_python_wrappers_of_the_built_in_bots_play_the_rust_arenas_games(rules, duplicate):
    """Each wrapper is asked act(observation) through the Rust arena's adapter (playing
    the observation's rules, no rules= given) and reseeded by begin_hand: the games are
    the all-Rust arena's, game for game."""
    names = ["efficiency", "strong", "expert", "efficiency"]
    rust = mj.arena(names, hands=24, seed=7, rules=rules, duplicate=duplicate)
    wrapped = [EfficiencyBot(), StrongBot(), ExpertBot(), EfficiencyBot()]
    py = mj.arena(wrapped, hands=24, seed=7, rules=rules, duplicate=duplicate)
    assert same_games(rust, py)
    assert py.bots == ["EfficiencyBot", "StrongBot", "ExpertBot", "EfficiencyBot"]
    # Mixed: two wrappers among two built-in names.
    mixed = mj.arena(
        [wrapped[0], "strong", wrapped[2], "efficiency"],
        hands=24,
        seed=7,
        rules=rules,
        duplicate=duplicate,
    )
    assert same_games(rust, mixed)


class Reseeded:
    """A Python bot that records what the arena tells it."""

    def __init__(self) -> None:
        self.seeds: list[int] = []
        self.seats: list[int] = []
        self.policy = Policy("random")

    def begin_hand(self, seed: int) -> None:
        self.seeds.append(seed)
        self.policy.reseed(seed)

    def act(self, obs):
        if len(self.seats) < len(self.seeds):  # the game's first decision
            self.seats.append(obs.seat)
        return self.policy.choose(obs)


def test_a_python_bot_is_told_each_game_and_sits_where_the_rust_arena_seats_it():
    bot = Reseeded()
    r = mj.arena([bot, "random", "random", "random"], hands=12, seed=4)
    assert len(bot.seeds) == 12 and len(set(bot.seeds)) == 12
    assert bot.seats == list(r.seats[:, 0])
    assert same_games(r, mj.arena("random", hands=12, seed=4))


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
    with pytest.raises(mj.BotError, match=r"bot 2 \(Raises\) raised ValueError") as info:
        mj.arena(["random", "random", Raises(after=60), "random"], hands=40, seed=3)
    e = info.value
    assert type(e) is mj.BotError and sim.ArenaBotError is mj.BotError
    assert e.bot == 2 and e.name == "Raises" and e.game == len(e.partial) > 0
    assert isinstance(e.partial, sim.ArenaResult)
    # The seat is the one the arena gave the bot in that game.
    assert e.seat == (2 + e.game) % 4 and f"seat {e.seat}" in str(e)
    assert isinstance(e.__cause__, ValueError) and str(e.__cause__) == "no idea"
    # The games finished lie on the walls and seats of any arena with this seed.
    n = len(e.partial)
    again = mj.arena("random", hands=n, seed=3)
    assert (again.wall[:n] == e.partial.wall).all() and (again.seats[:n] == e.partial.seats).all()
    assert e.hand is None and e.record is None


def test_an_illegal_action_raises_illegal_bot_action_error():
    with pytest.raises(
        mj.IllegalBotActionError, match=r"bot 0 \(liar\) returned an illegal action"
    ) as info:
        mj.arena([AlwaysWins(), "random", "random", "random"], hands=4)
    e = info.value
    assert isinstance(e, mj.BotError) and isinstance(e, mj.IllegalActionError)
    assert e.bot == 0 and e.game == 0 and e.seat == 0 and len(e.partial) == 0
    assert isinstance(e.__cause__, mj.IllegalActionError)


class Answers:
    """Answers ``act`` with a fixed object."""

    def __init__(self, answer: object) -> None:
        self.answer = answer

    def act(self, obs):
        return self.answer


def test_an_answer_that_is_not_an_action_is_an_illegal_action():
    with pytest.raises(
        mj.IllegalBotActionError, match=r"act returned str, not a majiang.Action"
    ) as info:
        mj.arena(["random", Answers("discard 1m"), "random", "random"], hands=4, seed=1)
    assert isinstance(info.value.__cause__, TypeError)
    assert info.value.bot == 1 and info.value.name == "Answers"


class FalseWin:
    """Declares a win on its first decision, then plays the first legal action."""

    def __init__(self) -> None:
        self.declared = False

    def act(self, obs):
        if not self.declared and not any(a.kind == "win" for a in obs.legal_actions):
            self.declared = True
            return mj.Action("win")
        return obs.legal_actions[0]


def test_a_false_win_under_botzone_penalties_is_the_rounds_to_settle():
    """Under the Botzone preset an undeclarable win is penalised by the round, not
    refused: the arena goes on (as the round decides, not the adapter)."""
    r = mj.arena([FalseWin(), "random", "random", "random"], hands=4, seed=1, rules=BOTZONE)
    assert len(r) == 4
    with pytest.raises(mj.IllegalBotActionError):
        mj.arena([FalseWin(), "random", "random", "random"], hands=4, seed=1)


class BadStart(Answers):
    def begin_hand(self, seed: int) -> None:
        raise RuntimeError(f"cannot start with {seed}")


def test_a_bot_whose_begin_hand_raises_is_named():
    with pytest.raises(
        mj.BotError, match=r"bot 3 \(BadStart\) raised RuntimeError in begin_hand"
    ) as info:
        mj.arena(["random", "random", "random", BadStart(None)], hands=8, seed=2)
    assert info.value.game == 0 and isinstance(info.value.__cause__, RuntimeError)


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


def test_the_botzone_bot_is_one_class_under_both_names():
    assert mj.botzone.BotzoneBot is mj.bots.BotzoneBot
    assert "BotzoneBot" in mj.botzone.__all__ and "BotzoneBot" in mj.bots.__all__
    with pytest.raises(mj.InvalidArgumentError):
        mj.botzone.BotzoneBot([sys.executable, "-c", "pass"], time_limit=-1)
