"""Botzone judge logs: majiang hands written as the judge's input and read back, a
hand-written log read, damaged logs refused."""

import copy
import json

import pytest

import majiang as mj
from majiang.botzone import LogError, judge_log, parse_log, read_log, write_log
from majiang.cli import main
from majiang.record import HandRecord, MatchRecord, RecordError

RULES = mj.botzone.rules()

# A hand in the judge's format, written out: player 0 draws B5 and discards it, player 1
# wins on it (清龙 16, 门前清 2, 幺九刻 1, 缺一门 1, 无字 1, 单钓 1: 22 fan). Each run of 34
# walltiles is one player's wall, taken from its end: the 13 tiles dealt, then the draws.
WALL = " ".join(
    [
        "W9 W9 W8 W8 W7 W7 W6 W6 W5 W5 W4 W4 W3 W3 W2 W2 W1 W1 T9 T9 B5",
        "J1 J1 F3 F2 F1 T9 T6 T3 B8 B2 W7 W4 W1",
        "T9 T8 T8 T8 T7 T7 T7 T6 T6 T6 T5 T5 T5 T4 T4 T4 T3 T3 T3 T2 T2",
        "B5 B1 B1 B1 W9 W8 W7 W6 W5 W4 W3 W2 W1",
        "T2 T1 T1 T1 J3 J2 J2 J1 J1 F4 F4 F4 F3 F3 F2 F2 F1 F1 B9 B9 B9",
        "F1 J3 J3 F4 T7 T4 T1 B9 B6 B3 W8 W5 W2",
        "B8 B8 B8 B7 B7 B7 B6 B6 B6 B5 B5 B4 B4 B4 B3 B3 B3 B2 B2 B2 B1",
        "J3 J2 J2 F3 F2 T8 T5 T2 B7 B4 W9 W6 W3",
    ]
)


def ok(response):
    return {"verdict": "OK", "response": response}


def request(*per_player):
    return {
        "output": {"command": "request", "content": {str(p): r for p, r in enumerate(per_player)}}
    }


PASS4 = {str(p): ok("PASS") for p in range(4)}
LOG = {
    "initdata": {"walltiles": WALL, "quan": 0, "srand": 1606780800},
    "log": [
        request("0 0 0", "0 1 0", "0 2 0", "0 3 0"),
        PASS4,
        request(
            "1 0 0 0 0 W1 W4 W7 B2 B8 T3 T6 T9 F1 F2 F3 J1 J1",
            "1 0 0 0 0 W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B1 B1 B5",
            "1 0 0 0 0 W2 W5 W8 B3 B6 B9 T1 T4 T7 F4 J3 J3 F1",
            "1 0 0 0 0 W3 W6 W9 B4 B7 T2 T5 T8 F2 F3 J2 J2 J3",
        ),
        PASS4,
        request("2 B5", "3 0 DRAW", "3 0 DRAW", "3 0 DRAW"),
        {"0": ok("PLAY B5"), "1": ok("PASS"), "2": ok("PASS"), "3": ok("PASS")},
        request(*["3 0 PLAY B5"] * 4),
        {"0": ok("PASS"), "1": ok("HU"), "2": ok("PASS"), "3": ok("PASS")},
        {"output": {"command": "finish", "content": {"0": -30, "1": 46, "2": -8, "3": -8}}},
    ],
}


def test_a_hand_written_judge_log_is_read_and_replays(tmp_path):
    rec = parse_log(json.dumps(LOG))
    assert rec.walls and rec.n_hands == 1 and rec.rule_set() == RULES
    (hand,) = rec.hands
    assert hand.dealer == 0 and hand.prevalent_wind == 0
    (win,) = hand.result["wins"]
    assert (win["seat"], win["from"], win["tile"], win["how"]) == (1, 0, 13, "discard")
    assert win["fan_total"] == 22
    assert rec.final_scores == [-30, 46, -8, -8]
    rec.replay()
    # Written out again it is the same hand, turn for turn.
    again = judge_log(rec)
    assert again["initdata"]["walltiles"] == WALL
    for mine, theirs in zip(again["log"], LOG["log"], strict=True):
        if "output" in theirs:
            assert mine["output"]["content"] == theirs["output"]["content"]
        else:
            assert mine == theirs
    # Saved as a record (version 3: the hand names its wall) it loads and replays.
    path = tmp_path / "hand.jsonl"
    rec.save(path)
    assert json.loads(path.read_text().splitlines()[0])["version"] == 3
    loaded = MatchRecord.load(path)
    loaded.replay()
    assert loaded.to_json() == rec.to_json()


def play(seed, dealer=0, wind=0, bots=None, liar_at=None):
    """One hand under Botzone's rules as a record (any dealer and prevalent wind)."""
    r = mj.Round(RULES, seed, dealer, wind)
    bots = bots or [mj.bots.EfficiencyBot(seed=seed + s) for s in range(4)]
    n = 0
    while r.pending:
        s = min(r.pending)
        n += 1
        a = mj.Action("win") if n == liar_at else bots[s].act(r.observation(s))
        r.apply(s, a)
    result = json.loads(json.dumps(r.result))
    hand = HandRecord(
        index=0,
        seed=seed,
        dealer=dealer,
        prevalent_wind=wind,
        scores_before=[0, 0, 0, 0],
        result=result,
        scores_after=result["deltas"],
        events_json=r.events_json(),
    )
    return MatchRecord(
        rules="gb",
        options=RULES.options(),
        seed=seed,
        n_hands=1,
        players=["a", "b", "c", "d"],
        hands=[hand],
        final_scores=result["deltas"],
    )


def plays(hand):
    """The hand's events without the dice (a log does not carry them)."""
    return [e for e in hand.events if e["type"] != "dice"]


def test_games_round_trip_through_the_judge_log():
    kinds = set()
    # Seeds 41 and 57 bring a kong on a discard and a concealed kong.
    for seed in [*range(24), 41, 57]:
        bots = [mj.bots.EfficiencyBot(seed=seed + s) for s in range(3)] + [mj.bots.RandomBot(seed)]
        if seed % 2:
            bots = [mj.bots.RandomBot(seed * 4 + s) for s in range(4)]
        rec = mj.Game(RULES, bots, seed=seed).play()
        back = parse_log(judge_log(rec))
        back.replay()
        assert plays(back.hands[0]) == plays(rec.hands[0]), seed
        assert back.hands[0].result == json.loads(json.dumps(rec.hands[0].result))
        assert back.final_scores == rec.final_scores
        kinds |= {e.get("how", e["type"]) for e in rec.hands[0].events}
        kinds |= {e["type"] for e in rec.hands[0].events}
    assert {"pung", "chow", "kong", "concealed_kong", "added_kong", "win"} <= kinds
    assert {"exhaustive_draw", "self_drawn", "discard"} <= kinds


@pytest.mark.parametrize(("seed", "dealer", "wind", "liar_at"), [(2, 3, 3, None), (3, 1, 2, 9)])
def test_botzone_players_count_from_the_dealer(seed, dealer, wind, liar_at):
    rec = play(seed, dealer, wind, liar_at=liar_at)
    log = judge_log(rec)
    assert log["initdata"]["quan"] == wind
    back = parse_log(log)
    back.replay()
    h, b = rec.hands[0], back.hands[0]
    assert b.dealer == 0 and b.prevalent_wind == wind
    # Botzone player p is the seat p places after the dealer.
    assert b.result["deltas"] == [h.result["deltas"][(dealer + p) % 4] for p in range(4)]
    if liar_at:
        assert plays(b)[-1]["type"] == "penalty"
        assert sorted(b.result["deltas"]) == [-30, 10, 10, 10]
        assert log["log"][-1]["output"]["display"]["action"] == "WH"


def test_write_read_and_the_command_line(tmp_path, capsys):
    rec = mj.Game(RULES, [mj.bots.EfficiencyBot(seed=s) for s in range(4)], seed=5).play()
    path = tmp_path / "log.json"
    write_log(rec, path)
    assert read_log(path).final_scores == rec.final_scores
    rec_path = tmp_path / "rec.jsonl"
    rec.save(rec_path)
    out = tmp_path / "cli.json"
    assert main(["botzone", "export", str(rec_path), "-o", str(out)]) == 0
    assert json.loads(out.read_text()) == json.loads(path.read_text())
    back = tmp_path / "back.jsonl"
    assert main(["botzone", "import", str(out), "-o", str(back)]) == 0
    MatchRecord.load(back).replay()
    capsys.readouterr()
    assert main(["replay", str(out), "--verify", "--all", "--text"]) == 0
    text = capsys.readouterr().out
    assert "verified" in text and "EfficiencyBot #1" in text  # the log names the players
    # An indented log, and the log list alone (its first output carries the initdata).
    pretty = tmp_path / "pretty.json"
    pretty.write_text(json.dumps(json.loads(out.read_text()), indent=2))
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps(json.loads(out.read_text())["log"]))
    for path in (pretty, bare):
        assert main(["replay", str(path), "--verify", "--all", "--text"]) == 0
        assert "verified" in capsys.readouterr().out
    # A record of other rules is not a Botzone game.
    other = mj.Game("gb", [mj.bots.RandomBot(s) for s in range(4)], seed=1, hands=1).play()
    with pytest.raises(LogError, match="private walls"):
        judge_log(other)
    other.save(rec_path)
    assert main(["botzone", "export", str(rec_path)]) == 2
    assert "private walls" in capsys.readouterr().err


def damaged(edit):
    log = copy.deepcopy(LOG)
    edit(log)
    return log


def answers(entry, **by_player):
    def edit(log):
        for p, text in by_player.items():
            log["log"][entry][p[1:]] = ok(text)

    return edit


DAMAGE = [
    ("not JSON", "{log: [", "not valid JSON"),
    ("no log list", {"initdata": LOG["initdata"]}, "'log' list"),
    ("no initdata", damaged(lambda g: g.pop("initdata")), "no initdata"),
    (
        "a fifth W1",
        damaged(lambda g: g["initdata"].update(walltiles=WALL.replace("W9", "W1", 1))),
        "holds 5 of tile code 0",
    ),
    (
        "a short wall",
        damaged(lambda g: g["initdata"].update(walltiles=WALL[3:])),
        "has 135 tiles",
    ),
    (
        "a bad tile name",
        damaged(lambda g: g["initdata"].update(walltiles=WALL.replace("W9", "X9", 1))),
        "'X9' is not a Botzone tile name",
    ),
    ("quan 4", damaged(lambda g: g["initdata"].update(quan=4)), "'quan' must be 0-3"),
    ("cut after the draw", damaged(lambda g: g.update(log=g["log"][:6])), "the log is cut"),
    ("cut before the scores", damaged(lambda g: g.update(log=g["log"][:8])), "final output"),
    (
        "more after the end",
        damaged(lambda g: g["log"].extend([PASS4, PASS4])),
        "goes on after the hand ended",
    ),
    (
        "forged draw request",
        damaged(lambda g: g["log"][4]["output"]["content"].update({"0": "2 B6"})),
        "log entry 4: the judge asks player 0 '2 B6'",
    ),
    (
        "forged scores",
        damaged(lambda g: g["log"][8]["output"]["content"].update({"1": 99})),
        "the judge's scores are",
    ),
    (
        "a tile not held",
        damaged(answers(5, p0="PLAY W5")),
        "log entry 5: player 0 answered 'PLAY W5' \\(WA",
    ),
    ("a claim on the deal", damaged(answers(3, p2="PENG W2")), "only PASS is taken"),
    ("a malformed answer", damaged(answers(5, p0="PLAY")), "not PLAY t, GANG t"),
    ("a win on its own discard", damaged(answers(7, p0="HU")), "its own discard"),
    (
        "a time-out before the winner",
        damaged(lambda g: g["log"][7].update({"1": {"verdict": "TLE"}})),
        "TLE for player 1's answer at log entry 7",
    ),
    ("an entry that is not an object", damaged(lambda g: g["log"].insert(3, 7)), "entry 3"),
    (
        "an answer that is not an object",
        damaged(lambda g: g["log"][5].update({"2": "PASS"})),
        "player 2 has no answer",
    ),
    (
        "a win the judge would not give",
        damaged(lambda g: g["log"][8]["output"]["content"].update({"0": -8, "1": 24})),
        "the judge's scores are",
    ),
    (
        "a finish that names another action",
        damaged(lambda g: g["log"][8]["output"].update(display={"action": "WH", "player": 1})),
        "the judge's finish shows 'WH' by player 1, the hand's answers give 'HU' by player 1",
    ),
]


@pytest.mark.parametrize(("what", "log", "match"), DAMAGE, ids=[d[0] for d in DAMAGE])
def test_damaged_logs_are_refused_naming_the_problem(what, log, match, tmp_path, capsys):
    text = log if isinstance(log, str) else json.dumps(log)
    with pytest.raises(LogError, match=match) as info:
        parse_log(text)
    assert isinstance(info.value, RecordError)
    path = tmp_path / "log.json"
    path.write_text(text)
    with pytest.raises(LogError, match=match):
        read_log(path)
    assert main(["botzone", "import", str(path)]) == 2
    assert match.split("'")[0] in capsys.readouterr().err


def test_a_false_win_in_a_log_is_the_botzone_penalty():
    # Player 0 declares a win on its draw of B5, which is none: it pays 10 to each (B-4).
    log = damaged(answers(5, p0="HU"))
    finish = {"output": {"command": "finish", "content": {"0": -30, "1": 10, "2": 10, "3": 10}}}
    log["log"][6:] = [finish]
    rec = parse_log(log)
    assert plays(rec.hands[0])[-1] == {"type": "penalty", "seat": 0, "each": 10}
    assert rec.final_scores == [-30, 10, 10, 10]
    rec.replay()


def robbed_kong_hand() -> MatchRecord:
    """Player 0 pungs player 2's B1 and adds the fourth, drawn later; player 1, waiting on
    B1 with a pure straight, robs the kong."""
    b1 = 9
    left = [4] * 34

    def take(tiles):
        for t in tiles:
            left[t] -= 1
        return list(tiles)

    quarters = [take([b1, b1]), take([0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 22, 22]), take([b1]), []]
    left[b1] -= 1  # the B1 player 0 draws on its third turn
    rest = [t for t in range(34) if t not in (b1, 10, 11, 22) for _ in range(left[t])]
    rest += [10] * left[10] + [11] * left[11] + [22] * left[22]
    quarters[0] += rest[:14] + [b1]
    del rest[:14]
    for q in quarters:
        n = 34 - len(q)
        q += rest[:n]
        del rest[:n]
    wall = [t for q in quarters for t in q]
    r = mj.record.round_from_wall(RULES, wall, 1, 0, 0)
    while r.pending:
        s = min(r.pending)
        legal = r.legal_actions(s)
        if r.phase == "rob_kong":
            a = mj.Action("win" if s == 1 else "pass")
        elif r.phase == "claim":
            a = mj.Action("pung", b1) if s == 0 and mj.Action("pung", b1) in legal else None
            a = a or mj.Action("pass")
        elif s == 0 and mj.Action("added_kong", b1) in legal:
            a = mj.Action("added_kong", b1)
        elif s == 2 and mj.Action("discard", b1) in legal:
            a = mj.Action("discard", b1)
        else:
            keep = (b1, 10, 11, 22)
            a = [x for x in legal if x.kind == "discard" and x.tile not in keep][-1]
        r.apply(s, a)
    result = json.loads(json.dumps(r.result))
    hand = HandRecord(0, 1, 0, 0, [0] * 4, result, result["deltas"], r.events_json(), wall=wall)
    return MatchRecord(
        "gb", RULES.options(), 1, 1, ["a", "b", "c", "d"], [hand], result["deltas"], True
    )


def test_a_robbed_added_kong_round_trips():
    rec = robbed_kong_hand()
    rec.replay()
    (win,) = rec.hands[0].result["wins"]
    assert (win["seat"], win["from"], win["how"]) == (1, 0, "robbed_kong")
    log = judge_log(rec)
    rob = [k for k, e in enumerate(log["log"]) if "3 0 BUGANG B1" in str(e.get("output"))]
    assert len(rob) == 1
    assert log["log"][rob[0] + 1]["1"]["response"] == "HU"
    back = parse_log(log)
    back.replay()
    assert plays(back.hands[0]) == plays(rec.hands[0])
    assert back.final_scores == rec.final_scores


def test_records_of_given_walls_check_their_walls():
    rec = parse_log(LOG)
    good = rec.hands[0].wall
    assert good is not None

    def with_wall(wall):
        bad = copy.deepcopy(rec)
        bad.hands[0].wall = wall
        return bad.to_json()

    # Two tiles of player 1's opening hand swapped with its wall's last: the engine deals
    # another hand than the record's events show.
    swapped = list(good)
    swapped[34], swapped[67] = swapped[67], swapped[34]
    assert swapped != good
    loaded = MatchRecord.from_json(with_wall(swapped))
    with pytest.raises(mj.record.ReplayMismatchError):
        loaded.replay()
    other = (good[0] + 1) % 34
    with pytest.raises(RecordError, match=r"'wall' holds [35] of tile code \d+, the wall 4"):
        MatchRecord.from_json(with_wall([other] + good[1:]))
    with pytest.raises(RecordError, match="has 135 tiles"):
        MatchRecord.from_json(with_wall(good[1:]))
    with pytest.raises(RecordError, match="names every hand's wall"):
        MatchRecord.from_json(with_wall(None))
    # A version 2 record has no walls.
    plain = copy.deepcopy(rec)
    plain.walls = False
    with pytest.raises(RecordError, match="unknown fields 'wall'"):
        MatchRecord.from_json(plain.to_json())


def finish(*scores, **display):
    return {
        "output": {
            "command": "finish",
            "content": {str(p): x for p, x in enumerate(scores)},
            "display": display,
        }
    }


REFUSED = [
    # Player 0 plays a tile it does not hold: WA, at its own draw.
    ("WA", 0, 5, "PLAY W5", lambda g: g["log"][5].update({"0": ok("PLAY W5")})),
    # Player 1 times out on player 0's discard: TLE (no response to read).
    ("TLE", 1, 7, None, lambda g: g["log"][7].update({"1": {"verdict": "TLE"}})),
    # Player 3 answers the deal with something else than PASS.
    ("WA", 3, 3, "PLAY W1", lambda g: g["log"].__setitem__(3, {**PASS4, "3": ok("PLAY W1")})),
    # Player 2 chows player 0's discard, which only the next player may.
    (
        "WA",
        2,
        7,
        "CHI B4 W1",
        lambda g: g["log"][7].update({"1": ok("PASS"), "2": ok("CHI B4 W1")}),
    ),
]


@pytest.mark.parametrize(("verdict", "player", "entry", "answer", "edit"), REFUSED)
def test_a_refused_answer_is_read_as_the_judges_penalty(
    verdict, player, entry, answer, edit, tmp_path, capsys
):
    log = damaged(edit)
    scores = [-30 if p == player else 10 for p in range(4)]
    log["log"][entry + 1 :] = [finish(*scores, action=verdict, player=player)]
    rec = parse_log(log)
    x = rec.refusal
    assert (x.player, x.verdict, x.entry, x.answer, x.scores) == (
        player,
        verdict,
        entry,
        answer,
        scores,
    )
    # The record holds no finished hand: the judge's penalty is no majiang move.
    assert rec.hands == [] and not rec.complete and rec.final_scores == [0, 0, 0, 0]
    assert x.events[0]["type"] in ("dice", "deal")
    assert f"log entry {entry}" in str(x) and verdict in str(x)
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log))
    assert main(["botzone", "import", str(path), "-o", str(tmp_path / "rec.jsonl")]) == 0
    assert f"the judge refused player {player}" in capsys.readouterr().err
    # Another verdict, or another offender, is not this log's finish.
    log["log"][-1] = finish(*scores, action="MLE", player=player)
    with pytest.raises(LogError, match=f"'MLE' by player {player}"):
        parse_log(log)


def test_the_judge_reads_the_first_win_in_claim_order():
    # Player 1 wins on player 0's B5; player 3's HU after it is never read (D3), nor is
    # player 2's verdict.
    for later in ({"3": ok("HU")}, {"2": {"verdict": "RE"}}, {"2": ok("PENG W1"), "3": ok("HU")}):
        log = damaged(lambda g, later=later: g["log"][7].update(later))
        rec = parse_log(log)
        assert rec.refusal is None and rec.final_scores == [-30, 46, -8, -8]
        rec.replay()
    # Player 3's false HU before player 1's in claim order from player 2 cannot be had
    # here; from player 0, a false HU by player 1 comes first and is the penalty (WH).
    log = damaged(lambda g: g["log"][7].update({"1": ok("HU"), "2": ok("HU")}))
    rec = parse_log(log)
    assert rec.final_scores == [-30, 46, -8, -8]
