"""``mj.bots.BotzoneBot``: Botzone bot programs playing whole hands in majiang rounds."""

import sys
from pathlib import Path

import pytest

import majiang as mj
from majiang.bots import BotzoneBot, FirstBot

SCRIPT = str(Path(__file__).parent / "data" / "botzone_pass_bot.py")
RULES = mj.RuleSet("gb", flowers=False)


def play(round_, bots):
    while not round_.is_over:
        s = round_.pending[0]
        a = bots[s].act(round_.observation(s))
        assert a in round_.legal_actions(s)
        round_.apply(s, a)
    return round_.result


def script(*flags, **kw):
    return BotzoneBot([sys.executable, SCRIPT, *flags], **kw)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_protocol_bot_plays_whole_hands(seed):
    bots = [FirstBot(), script(), FirstBot(), script()]
    try:
        play(mj.Round(RULES, seed=seed, dealer=seed % 4), bots)
        for b in (bots[1], bots[3]):
            assert b.illegal == 0 and b.answers > 20
            # Every request is well formed. The program was started once, at its first
            # decision, with the requests before it as history (the position, the deal,
            # the moves before its first turn), and answered every request after.
            assert len(b._requests) == len(b._responses)
            assert b.starts == 1 and b.failures == []
            assert 2 <= len(b._requests) - b.answers <= 12
            assert b._requests[0].startswith("0 ") and b._requests[1].startswith("1 ")
    finally:
        for b in (bots[1], bots[3]):
            b.close()


def test_the_requests_fold_claims_and_echo_own_moves():
    bot = script()
    bots = [bot, FirstBot(), FirstBot(), FirstBot()]
    try:
        play(mj.Round(RULES, seed=4), bots)
        reqs = bot._requests
        me = int(reqs[0].split()[1])
        assert me == 0  # the dealer is Botzone player 0
        # Each draw of this bot is followed (after its answer) by the echo of its discard.
        for i, r in enumerate(reqs[:-1]):
            if r.startswith("2 "):
                played = bot._responses[i].split()[1]
                assert reqs[i + 1] == f"3 0 PLAY {played}"
        # Claims by the other seats arrive as PENG/CHI with their discard.
        assert all(len(r.split()) == 4 for r in reqs if " PENG " in r)
        assert all(len(r.split()) == 5 for r in reqs if " CHI " in r)
    finally:
        bot.close()


def test_illegal_answers_are_counted_and_replaced():
    bot = script("--bad")
    bots = [bot, FirstBot(), FirstBot(), FirstBot()]
    try:
        play(mj.Round(RULES, seed=5), bots)
        draws = sum(r.startswith("2 ") for r in bot._requests)
        assert draws > 0 and bot.illegal == draws
    finally:
        bot.close()


def test_a_late_answer_is_replaced_and_the_program_restarted():
    bot = script("--slow", time_limit=1.0)
    bots = [bot, FirstBot(), FirstBot(), FirstBot()]
    try:
        play(mj.Round(RULES, seed=6), bots)
        assert bot.illegal == 1
        assert len(bot.failures) == 1 and "did not answer in time" in bot.failures[0]
        # Killed at the time-out, started again with the whole history at its next
        # decision, it kept answering legally after.
        assert bot.starts == 2 and bot.gave_up == []
        assert bot.answers >= len(bot._requests) - 20
    finally:
        bot.close()


def test_majiang_botzone_plays_through_botzone_bot_without_an_illegal_answer():
    cmd = [sys.executable, "-m", "majiang", "botzone", "--keep-running", "--shared-wall"]
    bots = [
        BotzoneBot([*cmd, "--bot", "efficiency", "--seed", "1"], time_limit=30),
        BotzoneBot([*cmd, "--bot", "strong", "--seed", "2"], time_limit=30),
        BotzoneBot([*cmd, "--bot", "random", "--seed", "3"], time_limit=30),
        FirstBot(),
    ]
    try:
        game = mj.Game(RULES, bots, seed=11, hands=2)
        record = game.play()
        assert len(record.hands) == 2
        for b in bots[:3]:
            assert b.illegal == 0 and b.answers > 40
    finally:
        for b in bots[:3]:
            b.close()


@pytest.mark.parametrize("seed", [2, 5])
def test_majiang_botzone_on_private_walls_never_answers_an_illegal_move(seed):
    # Four `majiang botzone` processes (private walls, the default) on a round played by
    # Botzone's walls; seed 2 once drew a win from a claim window that had no decision.
    rules = mj.RuleSet("gb", private_walls=True, flowers=False)
    cmd = [sys.executable, "-m", "majiang", "botzone", "--keep-running", "--seed", str(seed)]
    names = ("efficiency", "random", "strong", "efficiency")
    bots = [BotzoneBot([*cmd, "--bot", b], time_limit=30) for b in names]
    try:
        play(mj.Round(rules, seed=seed, dealer=0), bots)
        assert [b.illegal for b in bots] == [0, 0, 0, 0]
        # Each started once, told of the hand's opening moves in its first input.
        assert all(b.answers > 30 and b.starts == 1 and not b.failures for b in bots)
    finally:
        for b in bots:
            b.close()
