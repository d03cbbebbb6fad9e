"""``majiang play --ascii`` in a real pseudo-terminal: it starts, shows the hand, reacts
to ``d`` and leaves on ``q`` then ``y``; and without Textual it says how to install it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile

import pytest

import majiang as mj

pexpect = pytest.importorskip("pexpect")
pytest.importorskip("textual")

CSI = re.compile(r"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[()][A-Z0-9]|\x1b[=>78]|\x1b\][^\x07]*\x07")
TILE = re.compile(r"(?<![0-9A-Za-z])[1-9][mpsz](?![0-9A-Za-z])")


def plain(raw: str) -> str:
    """The text of a stretch of terminal output, escape sequences removed."""
    return CSI.sub("", raw)


def read_for(child: object, seconds: float) -> str:
    """Everything the program writes within `seconds`."""
    out = []
    deadline = seconds
    while deadline > 0:
        try:
            out.append(child.read_nonblocking(65536, timeout=0.25))  # type: ignore[attr-defined]
        except pexpect.TIMEOUT:
            pass
        except pexpect.EOF:
            break
        deadline -= 0.25
    return "".join(out)


def spawn(*extra: str, data: object = None, level: str | None = "easy") -> object:
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="110", LINES="36")
    env.pop("NO_COLOR", None)
    # Settings and statistics go to a directory of the test's, never the user's.
    env["XDG_DATA_HOME"] = str(data) if data is not None else tempfile.mkdtemp()
    return pexpect.spawn(
        sys.executable,
        [
            "-m",
            "majiang",
            "play",
            "--ascii",
            "--seed",
            "5",
            *(["--level", level] if level else []),
            "--delay",
            "0",
            *extra,
        ],
        dimensions=(36, 110),
        env=env,
        encoding="utf-8",
        codec_errors="replace",
        timeout=30,
    )


def test_play_ascii_in_a_pty(tmp_path: object) -> None:
    record = tmp_path / "game.jsonl"  # type: ignore[operator]
    child = spawn("--record", str(record))
    try:
        child.expect("Your turn", timeout=30)
        screen = plain(child.before + child.after + read_for(child, 1.0))
        tiles = TILE.findall(screen)
        assert len(tiles) >= 13, screen
        child.send("d")
        after = plain(read_for(child, 2.0))
        # The screen is redrawn: the discard and the bots' moves that follow show up.
        assert TILE.search(after) and "discard" in after, after
        child.send("q")
        child.expect("Quit the game", timeout=10)
        child.send("y")
        child.expect(pexpect.EOF, timeout=15)
    finally:
        child.close()
    assert child.exitstatus == 0
    # Quitting in the first hand still leaves a record (no finished hand yet).
    rec = mj.MatchRecord.from_json(record.read_text())
    assert rec.seed == 5 and rec.hands == []


def test_a_second_match_never_overwrites_the_first_record_and_saved_settings_apply(
    tmp_path: object,
) -> None:
    record = tmp_path / "game.jsonl"  # type: ignore[operator]
    record.write_text("an earlier match\n")
    data = tmp_path / "data"  # type: ignore[operator]
    (data / "majiang").mkdir(parents=True)
    settings = {"level": "hard", "hints": False, "explain": False, "colours": "none"}
    (data / "majiang" / "settings.json").write_text(json.dumps(settings))
    child = spawn("--record", str(record), data=data, level=None)
    try:
        child.expect("Your turn", timeout=60)
        screen = plain(child.before + child.after + read_for(child, 1.0))
        # The saved level: the opponents are the expert (no --level given).
        assert "vs ExpertBot (hard)" in screen, screen
        child.send("q")
        child.expect("Quit the game", timeout=10)
        child.send("y")
        child.expect(pexpect.EOF, timeout=15)
        out = plain(child.before)
    finally:
        child.close()
    assert child.exitstatus == 0
    assert record.read_text() == "an earlier match\n"
    second = tmp_path / "game-2.jsonl"  # type: ignore[operator]
    assert mj.MatchRecord.from_json(second.read_text()).seed == 5
    assert "game-2.jsonl" in out and "holds an earlier match" in out


def test_a_new_record_name_is_taken_beside_every_earlier_one(tmp_path: object) -> None:
    from majiang.commands.play import new_record_path

    path = str(tmp_path / "m.jsonl")  # type: ignore[operator]
    first = new_record_path(path)
    second = new_record_path(path)
    third = new_record_path(path)
    assert first == (path, True)
    assert second[0].endswith("m-2.jsonl") and third[0].endswith("m-3.jsonl")
    assert not second[1] and not third[1]
    # Each name was taken at once, so two games started together never share one.
    assert all(os.path.exists(p) for p, _ in (first, second, third))


def test_botzone_typed_alone_at_a_terminal_says_what_it_waits_for() -> None:
    child = pexpect.spawn(
        sys.executable,
        ["-m", "majiang", "botzone"],
        dimensions=(24, 100),
        encoding="utf-8",
        timeout=30,
    )
    try:
        child.expect("waits for the Botzone judge's input", timeout=30)
        child.expect("Ctrl-D", timeout=5)
        child.sendeof()
        child.expect(pexpect.EOF, timeout=15)
    finally:
        child.close()
    # From a pipe (the judge), nothing is said: stderr stays clean.
    proc = subprocess.run(
        [sys.executable, "-m", "majiang", "botzone"],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "waits for" not in proc.stderr


def test_play_without_textual_says_how_to_install(tmp_path: object) -> None:
    # A stand-in "textual" package that is not importable hides the real one.
    code = (
        "import sys, importlib.util\n"
        "real = importlib.util.find_spec\n"
        "def hide(name, *a):\n"
        "    return None if name == 'textual' else real(name, *a)\n"
        "importlib.util.find_spec = hide\n"
        "from majiang.cli import main\n"
        "sys.exit(main(['play']))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert "pip install" in proc.stderr and "majiang[ui]" in proc.stderr
    assert "Traceback" not in proc.stderr
