"""Games keep what was played: the record grows hand by hand on the Game and on disk; a
failing, slow or cheating bot and Ctrl-C end the match with the finished hands kept;
Match.finish_hand takes only the hand it dealt."""

from __future__ import annotations

import json
import pickle
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import majiang as mj
from majiang.cli import main


class Failing:
    """A RandomBot that fails (by `how`) once `game.record` holds `after` hands."""

    def __init__(self, seed: int, after: int, how: str):
        self.inner = mj.bots.RandomBot(seed=seed)
        self.after = after
        self.how = how
        self.game: mj.Game | None = None
        self.release = threading.Event()

    def act(self, obs):
        assert self.game is not None and self.game.record is not None
        if len(self.game.record.hands) >= self.after:
            if self.how == "raise":
                raise ZeroDivisionError("the bot divided by zero")
            if self.how == "hang":
                self.release.wait(60)
            if self.how == "cheat" and obs.phase == "turn":
                return mj.Action("chow", 0)
        return self.inner.act(obs)


def game_with(seat: int, bot: Failing, tmp_path, **kw) -> mj.Game:
    bots = [mj.bots.RandomBot(seed=i) for i in range(4)]
    bots[seat] = bot
    g = mj.Game("gb", bots=bots, seed=3, hands=8, record_path=tmp_path / "m.jsonl", **kw)
    bot.game = g
    return g


def check_kept(g: mj.Game, err: mj.BotError, seat: int, hands: int, tmp_path) -> None:
    assert err.seat == seat and err.hand == hands
    assert err.record is g.record and len(g.record.hands) == hands
    assert [h.index for h in g.record.hands] == list(range(hands))
    g.record.replay()
    on_disk = mj.MatchRecord.load(tmp_path / "m.jsonl")
    assert on_disk.hands == g.record.hands and not on_disk.complete
    assert on_disk.final_scores == g.record.hands[-1].scores_after
    on_disk.replay()
    trailer = json.loads((tmp_path / "m.jsonl").read_text().splitlines()[-1])
    assert trailer["complete"] is False and trailer["hands_played"] == hands


def test_a_bot_raising_at_hand_3_leaves_hands_0_to_2(tmp_path):
    bot = Failing(9, after=3, how="raise")
    g = game_with(2, bot, tmp_path)
    with pytest.raises(mj.BotError, match="seat 2 .*ZeroDivisionError.* hand 4") as info:
        g.play()
    assert isinstance(info.value.__cause__, ZeroDivisionError)
    assert isinstance(info.value, RuntimeError)
    copy = pickle.loads(pickle.dumps(info.value))
    assert (type(copy), str(copy), copy.seat, copy.hand) == (
        mj.BotError,
        str(info.value),
        2,
        3,
    )
    check_kept(g, info.value, 2, 3, tmp_path)


def test_a_bot_over_the_decision_timeout_ends_the_match(tmp_path):
    bot = Failing(9, after=1, how="hang")
    g = game_with(1, bot, tmp_path, decision_timeout=0.2)
    try:
        with pytest.raises(mj.BotTimeoutError, match="seat 1 .*longer than 0.2 s") as info:
            g.play()
    finally:
        bot.release.set()
    assert isinstance(info.value, mj.BotError)
    assert isinstance(info.value.__cause__, TimeoutError)
    check_kept(g, info.value, 1, 1, tmp_path)


def test_a_decision_timeout_changes_nothing_for_prompt_bots():
    def play(timeout):
        bots = [mj.bots.RandomBot(seed=i) for i in range(4)]
        return mj.Game("gb", bots=bots, seed=4, hands=3, decision_timeout=timeout).play()

    assert play(30).to_json() == play(None).to_json()
    with pytest.raises(ValueError, match="decision_timeout"):
        mj.Game("gb", decision_timeout=0)


def test_an_illegal_action_ends_the_match(tmp_path):
    bot = Failing(9, after=2, how="cheat")
    g = game_with(0, bot, tmp_path)
    with pytest.raises(mj.IllegalBotActionError, match="seat 0 .*illegal action") as info:
        g.play()
    assert isinstance(info.value, mj.IllegalActionError)
    assert isinstance(info.value.__cause__, mj.IllegalActionError)
    check_kept(g, info.value, 0, 2, tmp_path)


def test_the_record_file_grows_hand_by_hand(tmp_path):
    path = tmp_path / "m.jsonl"
    seen = []

    class Watcher(mj.bots.RandomBot):
        def act(self, obs):
            seen.append(path.read_text().count('"type": "result"'))
            return super().act(obs)

    bots = [Watcher(seed=0), *(mj.bots.RandomBot(seed=i) for i in (1, 2, 3))]
    g = mj.Game("gb", bots=bots, seed=6, hands=3, record_path=path)
    rec = g.play()
    assert sorted(set(seen)) == [0, 1, 2]
    assert path.read_text() == rec.to_json()
    assert mj.MatchRecord.load(path).complete


def test_the_record_path_is_checked_before_the_match(tmp_path):
    with pytest.raises(FileNotFoundError, match="does not exist"):
        mj.Game("gb", record_path=tmp_path / "nope" / "m.jsonl")
    with pytest.raises(IsADirectoryError):
        mj.Game("gb", record_path=tmp_path)


def test_play_record_option_checks_the_path(tmp_path, capsys):
    pytest.importorskip("textual")
    assert main(["play", "--record", str(tmp_path / "nope" / "m.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "--record" in err and "does not exist" in err


SCRIPT = textwrap.dedent(
    """
    import sys
    import majiang as mj

    bots = [mj.bots.RandomBot(seed=i) for i in range(4)]
    g = mj.Game("gb", bots=bots, seed=1, hands=5000, record_path=sys.argv[1])
    try:
        g.play()
    except KeyboardInterrupt:
        print(f"interrupted after {len(g.record.hands)} hands", flush=True)
        sys.exit(130)
    print("finished", flush=True)
    """
)


def test_ctrl_c_keeps_the_finished_hands(tmp_path):
    path = tmp_path / "m.jsonl"
    script = tmp_path / "long_match.py"
    script.write_text(SCRIPT)
    proc = subprocess.Popen(
        [sys.executable, str(script), str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        for _ in range(600):  # up to a minute for the first hands to reach the disk
            if path.exists() and path.read_text().count('"type": "result"') >= 3:
                break
            time.sleep(0.1)
        else:
            pytest.fail("no hand reached the record file")
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert out.startswith("interrupted after ") and out.count("\n") == 1, out
    assert "Traceback" not in err
    n = int(out.split()[2])
    rec = mj.MatchRecord.load(path)
    assert len(rec.hands) == n >= 3 and not rec.complete
    rec.replay()


# ---- Match.finish_hand takes only the hand it dealt ---------------------------------------


def finished(r: mj.Round) -> mj.Round:
    while r.pending:
        for s in r.pending:
            r.apply(s, r.legal_actions(s)[0])
    return r


def test_finish_hand_refuses_rounds_it_did_not_deal():
    m = mj.Match("gb", seed=7, hands=4)
    theirs = finished(mj.Match("gb", seed=8, hands=4).start_hand())
    with pytest.raises(ValueError, match="no hand of this match is in play"):
        m.finish_hand(theirs)
    r = m.start_hand()
    assert m.hand_in_play
    with pytest.raises(ValueError, match="not over"):
        m.finish_hand(r)
    finished(r)
    with pytest.raises(ValueError, match="not hand 1 of this match"):
        m.finish_hand(theirs)
    classic = finished(mj.Match("classic", seed=7, hands=4).start_hand())
    with pytest.raises(ValueError, match="other rules"):
        m.finish_hand(classic)
    loose = finished(mj.Round("gb", m.hand_seed, m.dealer, m.prevalent_wind))
    m.finish_hand(loose)  # the same deal under the same rules is the same hand
    assert m.hand_index == 1 and not m.hand_in_play
    with pytest.raises(ValueError, match="no hand of this match is in play"):
        m.finish_hand(r)  # counted once
    assert m.hand_index == 1 and m.scores == list(r.result["deltas"])
