"""``majiang fan`` on the command line."""

from __future__ import annotations

import json
import subprocess
import sys

from majiang.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["fan", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_table_lists_fans_with_both_names(capsys):
    code, out, _ = run(capsys, "123m456p789s2255z", "--win", "5z")
    assert code == 0
    for text in ("花龙", "Mixed Straight", "五门齐", "All Types", "门前清", "Concealed Hand"):
        assert text in out
    assert "Total 18 fan" in out
    assert "minimum 8: met" in out


def test_json_output(capsys):
    code, out, _ = run(
        capsys,
        "2345m",
        "--win",
        "5m",
        "--melds",
        "555z",
        "666z",
        "ck:7777z",
        "--self-drawn",
        "--about-kong",
        "--flowers",
        "2",
        "--json",
    )
    assert code == 0
    data = json.loads(out)
    names = {f["name_zh"]: f for f in data["fans"]}
    assert "大三元" in names and "杠上开花" in names and "暗杠" in names
    assert names["花牌"]["count"] == 2
    assert data["total"] == data["total_without_flowers"] + 2
    assert data["meets_minimum"] is True
    assert data["input"]["melds"] == ["pung:555z", "pung:666z", "concealed_kong:7777z"]


def test_below_minimum_and_winds(capsys):
    code, out, _ = run(capsys, "234m567m345p78s11z", "--win", "6s", "--json")
    data = json.loads(out)
    assert code == 0 and data["meets_minimum"] is False and data["total"] == 3
    code, out, _ = run(
        capsys,
        "234m567m55p78s",
        "--win",
        "6s",
        "--melds",
        "111z",
        "--seat",
        "E",
        "--prevalent",
        "S",
        "--json",
    )
    names = [f["name"] for f in json.loads(out)["fans"]]
    assert "Seat Wind" in names and "Prevalent Wind" not in names


def test_classic_ready_fan(capsys):
    code, out, _ = run(
        capsys, "234m567m345p78s11z", "--win", "6s", "--rules", "classic", "--ready", "--json"
    )
    data = json.loads(out)
    assert code == 0
    assert [f["name_zh"] for f in data["fans"]][-1] == "听牌"
    assert data["total"] == 4


def test_rule_option(capsys):
    argv = ["1234m", "--win", "1m", "--melds", "5555p", "ck:7777s", "777z", "--json"]
    _, out, _ = run(capsys, *argv)
    assert "Concealed Kong and Melded Kong" in out
    _, out, _ = run(capsys, *argv, "-o", "mcr_separate_mixed_kongs=true")
    names = [f["name"] for f in json.loads(out)["fans"]]
    assert "Concealed Kong" in names and "Melded Kong" in names


def test_errors_exit_nonzero(capsys):
    # Bad input exits 2 with "majiang fan: error: ...", as majiang shanten does.
    code, _, err = run(capsys, "123m456p789s1122z", "--win", "3z")
    assert code == 2 and err.startswith("majiang fan: error: ") and "Error:" not in err
    code, _, err = run(capsys, "1111m456p789s122z", "--win", "1m")
    assert code == 2 and "5 copies of 1m" in err
    code, _, err = run(capsys, "123m456p789s2255z", "--win", "5z", "--flowers", "9")
    assert code == 2 and "flowers" in err
    code, _, err = run(capsys, "123m456p789s2255z", "--win", "5z", "-o", "no_such=1")
    assert code == 2 and "no_such" in err


def test_subprocess_entry_point():
    done = subprocess.run(
        [sys.executable, "-m", "majiang", "fan", "19m19p19s1234567z", "--win", "1m"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "十三幺" in done.stdout and "Thirteen Orphans" in done.stdout
