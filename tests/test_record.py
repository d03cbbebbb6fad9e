"""Match records: JSON lines, loading, replay through the engine, the replay command."""

import hashlib
import json

import pytest

import majiang as mj
from majiang.cli import main


@pytest.fixture(scope="module")
def gb_record():
    return mj.Game(
        "gb", bots=[mj.bots.RandomBot(seed=i) for i in range(4)], seed=21, hands=6
    ).play()


def test_json_lines_layout(gb_record):
    lines = gb_record.to_json().splitlines()
    objs = [json.loads(x) for x in lines]
    head = objs[0]
    assert head["type"] == "header" and head["format"] == "majiang-record" and head["version"] == 2
    assert head["rules"] == "gb" and head["seed"] == 21 and head["hands"] == 6
    assert head["options"] == mj.RuleSet("gb").options()
    digest = hashlib.sha256("".join(x + "\n" for x in lines[:-1]).encode()).hexdigest()
    assert objs[-1] == {
        "type": "match_end",
        "complete": True,
        "hands_played": 6,
        "final_scores": gb_record.final_scores,
        "digest": "sha256:" + digest,
    }
    assert [o["hand"] for o in objs if o["type"] == "hand"] == list(range(6))
    assert sum(1 for o in objs if o["type"] == "result") == 6
    events = [o for o in objs[1:-1] if o["type"] not in ("hand", "result")]
    assert all("hand" in o for o in events)
    assert {o["type"] for o in events} >= {"dice", "deal", "draw", "discard"}


def test_round_trip_and_replay(gb_record):
    text = gb_record.to_json()
    back = mj.MatchRecord.from_json(text)
    assert back.to_json() == text
    assert back.final_scores == gb_record.final_scores
    assert [h.events for h in back.hands] == [h.events for h in gb_record.hands]
    back.replay()
    mj.replay_record(gb_record)


def test_replay_reproduces_classic_with_ready_declarations():
    rec = mj.Game(
        "classic", bots=[mj.bots.RandomBot(seed=i) for i in range(4)], seed=4, hands=8
    ).play()
    back = mj.MatchRecord.from_json(rec.to_json())
    back.replay()
    assert any(e.get("ready") for h in back.hands for e in h.events)


def test_replay_detects_tampering(gb_record):
    lines = gb_record.to_json().splitlines()
    for i, line in enumerate(lines):
        obj = json.loads(line)
        if obj["type"] == "discard":
            obj["tile"] = (obj["tile"] + 1) % 34
            lines[i] = json.dumps(obj)
            break
    # The trailer's digest no longer matches the lines.
    with pytest.raises(mj.RecordError, match="digest"):
        mj.MatchRecord.from_json("\n".join(lines) + "\n")
    # Without the trailer (a record still being written) the engine finds the change.
    bad = mj.MatchRecord.from_json("\n".join(lines[:-1]) + "\n")
    with pytest.raises(mj.ReplayMismatchError, match="the engine"):
        bad.replay()
    lines = gb_record.to_json().splitlines()[:-1]
    res = [i for i, x in enumerate(lines) if json.loads(x)["type"] == "result"][0]
    obj = json.loads(lines[res])
    obj["deltas"] = [1, -1, 0, 0]
    lines[res] = json.dumps(obj)
    with pytest.raises(mj.RecordError, match="scores after hand 0"):
        mj.MatchRecord.from_json("\n".join(lines) + "\n")


def test_from_json_names_bad_lines():
    with pytest.raises(ValueError, match="line 1"):
        mj.MatchRecord.from_json("not json\n")
    with pytest.raises(ValueError, match="header"):
        mj.MatchRecord.from_json('{"type": "draw"}\n')
    with pytest.raises(ValueError, match="empty"):
        mj.MatchRecord.from_json("")


def test_replay_command_prints_the_match(gb_record, tmp_path, capsys):
    path = tmp_path / "match.jsonl"
    path.write_text(gb_record.to_json(), encoding="utf-8")
    assert main(["replay", str(path), "--all"]) == 0
    out = capsys.readouterr().out
    assert "Hand 1" in out and "Hand 6" in out
    assert "discards" in out
    assert "Final scores" in out
    winners = [h for h in gb_record.hands if h.winners]
    if winners:
        assert "wins" in out
    assert main(["replay", str(path), "--all", "--hand", "2"]) == 0
    out = capsys.readouterr().out
    assert "Hand 2" in out and "Hand 3" not in out


def test_replay_command_rejects_a_bad_file(tmp_path, capsys):
    path = tmp_path / "bad.jsonl"
    path.write_text("nonsense\n", encoding="utf-8")
    assert main(["replay", str(path), "--all"]) != 0
    assert "line 1" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "missing.jsonl"), "--all"]) != 0


class Rash:
    """Declares a win it was not offered now and then (penalised under mcr_1998)."""

    def __init__(self, seed):
        import random

        self.rng = random.Random(seed)

    def act(self, obs):
        if obs.barred[obs.seat]:
            return self.rng.choice(obs.legal_actions)
        if obs.phase == "turn" and obs.drawn is not None and self.rng.random() < 0.02:
            if mj.Action("win") not in obs.legal_actions:
                return mj.Action("win")
        return self.rng.choice(obs.legal_actions)


def test_replay_reproduces_penalties():
    rules = mj.RuleSet("gb", penalty_mode="mcr_1998")
    rec = mj.Game(rules, bots=[Rash(i) for i in range(4)], seed=8, hands=6).play()
    penalties = [e for h in rec.hands for e in h.events if e["type"] == "penalty"]
    assert penalties
    assert sum(rec.final_scores) == 0
    mj.MatchRecord.from_json(rec.to_json()).replay()


def test_playing_twice_gives_the_same_record():
    g = mj.Game("gb", bots=[mj.bots.FirstBot()] * 4, seed=12, hands=2)
    assert g.play().to_json() == g.play().to_json()


def test_replay_is_interactive_on_a_terminal(gb_record, tmp_path):
    import sys

    pexpect = pytest.importorskip("pexpect")
    path = tmp_path / "match.jsonl"
    path.write_text(gb_record.to_json(), encoding="utf-8")
    args = ["-m", "majiang", "replay", str(path), "--text"]  # the line view, one key a step
    child = pexpect.spawn(sys.executable, args, encoding="utf-8", timeout=20)
    child.expect("Any key: next step")
    child.expect("dice")
    child.sendline("")
    child.expect("dealt")
    child.sendline("n")
    child.expect("Hand 2")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
