"""``majiang botzone`` driven by scripted Botzone transcripts in each IO mode."""

import json
import subprocess
import sys

import pytest

from majiang.botzone import KEEP_RUNNING, BotzonePlayer, parse_response

# Player 1's requests of a short hand, with the answers the judge needs: player 0 draws
# and discards 4m, player 1 may chow it or pass, player 2 discards 1z (player 1 holds two).
REQUESTS = [
    "0 1 0",
    "1 0 0 0 0 W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F1 J1 J2",
    "3 0 DRAW",
    "3 0 PLAY W4",
]


def botzone(*args, stdin):
    out = subprocess.run(
        [sys.executable, "-m", "majiang", "botzone", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return out.stdout.splitlines()


def simple_input(requests, responses):
    lines = [str(len(requests))]
    for i, req in enumerate(requests):
        lines.append(req)
        if i < len(responses):
            lines.append(responses[i])
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("bot", ["random", "efficiency", "strong", "expert"])
def test_every_io_mode_gives_the_same_answers(bot):
    # Keep-running, simple IO: one process answers every request.
    lines = botzone(
        "--bot",
        bot,
        "--seed",
        "5",
        "--keep-running",
        stdin=simple_input(REQUESTS[:1], []) + "\n".join(REQUESTS[1:]) + "\n",
    )
    assert lines[1::2] == [KEEP_RUNNING] * len(REQUESTS)
    answers = lines[0::2]
    assert answers[:3] == ["PASS", "PASS", "PASS"]
    last = parse_response(answers[3])
    assert last.op in ("PASS", "CHI")
    if last.op == "CHI":
        assert last.tiles[0] in (1, 2)  # the chow 234m or 345m... only 234m is held
    # Simple IO, a fresh process for the last turn.
    assert botzone("--bot", bot, "--seed", "5", stdin=simple_input(REQUESTS, answers[:3])) == [
        answers[3]
    ]
    # JSON IO, once and kept running.
    full = json.dumps({"requests": REQUESTS, "responses": answers[:3]})
    assert botzone("--bot", bot, "--seed", "5", "--io", "json", stdin=full + "\n") == [
        json.dumps({"response": answers[3]})
    ]
    first = json.dumps({"requests": REQUESTS[:1], "responses": []})
    rest = "".join(json.dumps(r) + "\n" for r in REQUESTS[1:])
    lines = botzone(
        "--bot", bot, "--seed", "5", "--io", "json", "--keep-running", stdin=first + "\n" + rest
    )
    assert [json.loads(x)["response"] for x in lines[0::2]] == answers


def test_a_claimed_chow_names_the_discard_after_it():
    player = BotzonePlayer("first", 0)
    for line in REQUESTS[:-1]:
        assert player.step(line) == "PASS"
    # FirstBot takes the first legal action: the chow 234m, then its first discard.
    answer = parse_response(player.step(REQUESTS[-1]))
    assert answer.op == "CHI" and answer.tiles[0] == 2  # middle tile 3m
    assert answer.tiles[1] in player.table.hand


def test_a_win_is_declared_and_a_hand_under_eight_fan_is_not():
    nine_gates = "1 0 0 0 0 W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9 W9"
    for bot in ("first", "efficiency", "strong", "expert"):
        p = BotzonePlayer(bot, 1)
        p.step("0 0 0")
        p.step(nine_gates)
        assert p.step("2 W5") == "HU"
    # 123m 456m 234p 678s 11z: complete, but about 5 fan.
    cheap = "1 0 0 0 0 W1 W2 W3 W4 W5 W6 B2 B3 B4 T6 T7 F1 F1"
    for bot in ("random", "first", "efficiency", "strong", "expert"):
        p = BotzonePlayer(bot, 1)
        p.step("0 0 0")
        p.step(cheap)
        answer = parse_response(p.step("2 T8"))
        assert answer.op == "PLAY"


def test_answers_are_deterministic_given_the_seed():
    def answers(seed):
        p = BotzonePlayer("random", seed)
        p.step("0 0 0")
        p.step("1 0 0 0 0 W1 W2 W3 W4 W5 W6 B2 B3 B4 T6 T7 F1 F3")
        out = []
        for t in ("T8", "J1", "J2", "J3", "B9", "T1"):
            out.append(p.step(f"2 {t}"))
            assert p.step("3 0 " + out[-1]) == "PASS"
        assert p.fallbacks == 0
        return out

    runs = {seed: answers(seed) for seed in range(6)}
    assert all(answers(seed) == runs[seed] for seed in (0, 1))
    assert len({tuple(a) for a in runs.values()}) > 1


def test_bad_input_is_reported():
    out = subprocess.run(
        [sys.executable, "-m", "majiang", "botzone"],
        input="2\n0 1 0\nPASS\n9 nonsense\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2 and "not a Botzone mahjong request" in out.stderr
