"""The ``majiang shanten`` command."""

import json

from majiang.cli import main


def test_waiting_hand_table(capsys):
    assert main(["shanten", "123m456p789s1122z"]) == 0
    out = capsys.readouterr().out
    assert "Shanten 0 (ready)" in out
    assert "regular" in out and "seven_pairs" in out and "knitted_straight" in out
    assert "Useful tiles: 2 kinds, 4 copies left" in out
    assert "1z×2 2z×2" in out
    assert "Waits: 1z 2z" in out


def test_full_hand_lists_best_discards_first(capsys):
    assert main(["shanten", "123m456p7899s1122z", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["shanten"] == 0 and not info["complete"]
    best = info["discards"][0]
    assert best["tile"] in ("1z", "2z", "9s")
    assert best["shanten"] == 0
    shanten = [d["shanten"] for d in info["discards"]]
    assert shanten == sorted(shanten)
    nine = next(d for d in info["discards"] if d["tile"] == "9s")
    assert {u["tile"] for u in nine["useful"]} >= {"1z", "2z"}


def test_melds_and_copies_left(capsys):
    assert main(["shanten", "1m", "--melds", "111m", "222z", "333z", "444z", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["melds"] == ["pung:111m", "pung:222z", "pung:333z", "pung:444z"]
    assert info["waits"] == [] and info["shanten"] == 1
    assert all(u["tile"] != "1m" for u in info["useful"])


def test_complete_hand(capsys):
    assert main(["shanten", "123m456p789s11122z"]) == 0
    out = capsys.readouterr().out
    assert "The hand is complete." in out and "Shanten -1" in out


def test_huainan_wild(capsys):
    args = ["shanten", "123m456p789s1255z", "--rules", "huainan", "--wild", "5z", "--json"]
    assert main(args) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["shanten"] == 0
    assert info["waits"] == ["1z", "2z", "5z"]


def test_bad_hand_is_an_error(capsys):
    assert main(["shanten", "123m"]) == 2
    assert "13 or 14" in capsys.readouterr().err
    assert main(["shanten", "123m456p789s1112z", "--melds", "124m"]) == 2
    assert "consecutive" in capsys.readouterr().err
