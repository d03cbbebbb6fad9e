"""Plays every job of majiang from an installed wheel, as a user without Rust would.

    python scripts/wheel_smoke.py

Run by ``.ci/run`` with the interpreter of a fresh virtual environment into which only the
wheel was installed, with no ``cargo`` on the PATH. It needs nothing but the standard
library and what the wheel brings, and it checks, each in a subprocess where a user would
meet it:

- the environment: no Rust toolchain on the PATH, majiang imported from the environment's
  site-packages (not from a source tree), its extension built for the stable ABI;
- the oracle: shanten, waits and a fan total of known hands;
- ``majiang simulate``: a seeded run prints the same summary twice;
- ``majiang botzone``: a built-in bot answers Botzone input;
- learning: ``VecEnv`` steps tables with random legal actions; without Gymnasium,
  ``MahjongEnv`` names the command that installs it, which is run as printed, and the
  environment then resets and steps;
- ``majiang play``: without Textual it names the command that installs it; that command is
  run as printed, and the game then starts in a pseudo-terminal, shows the hand, and
  quits on ``q`` ``y``.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import select
import shlex
import shutil
import struct
import subprocess
import sys
import sysconfig
import tempfile
import termios
import time
from pathlib import Path

CSI = re.compile(r"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[()][A-Z0-9]|\x1b[=>78]|\x1b\][^\x07]*\x07")
WORK = Path(tempfile.mkdtemp(prefix="majiang-smoke-"))


def majiang(
    *args: str, stdin: str | None = None, check: bool = True
) -> subprocess.CompletedProcess:
    """``majiang ARGS`` as the installed console script, outside any source tree."""
    exe = Path(sys.executable).parent / "majiang"
    proc = subprocess.run(
        [str(exe), *args], input=stdin, capture_output=True, text=True, cwd=WORK, timeout=600
    )
    if check and proc.returncode != 0:
        raise AssertionError(f"majiang {' '.join(args)} exited {proc.returncode}:\n{proc.stderr}")
    return proc


def check_environment() -> None:
    for tool in ("cargo", "rustc"):
        assert shutil.which(tool) is None, f"{tool} is on the PATH: this is not a Rust-free test"
    import majiang as mj
    from majiang import _core

    site = Path(sysconfig.get_paths()["purelib"]).resolve()
    where = Path(mj.__file__).resolve()
    assert site in where.parents, f"majiang imported from {where}, not from {site}"
    assert ".abi3." in Path(_core.__file__).name, f"not an abi3 extension: {_core.__file__}"
    print(f"environment: majiang {mj.__version__} from {where.parent}, no cargo on the PATH")


def check_oracle() -> None:
    import majiang as mj

    assert mj.shanten("123m456p789s1112z") == 0
    assert mj.waits("123m456p789s1112z") == [28]
    assert mj.shanten("1111m123456789p") == 1
    r = mj.evaluate_fan("123m456p789s2255z", "5z")
    assert (r.total, r.meets_minimum) == (18, True), r
    out = majiang("shanten", "13579m2468p1357s1z").stdout
    assert "regular" in out, out
    print("oracle: shanten, waits, fans as documented")


def check_simulate() -> None:
    args = ("simulate", "-n", "2000", "--seed", "0", "--bots", "efficiency", "--json", "-q")
    first = json.loads(majiang(*args).stdout)
    second = json.loads(majiang(*args, "--threads", "1").stdout)
    assert first == second, "the same seed gave different summaries"
    assert 0.5 < first["win_rate"] < 1.0, first
    print(f"simulate: 2,000 hands, win rate {first['win_rate']:.4f}, the same on 1 thread")


def check_botzone() -> None:
    request = "3\n0 0 1\nPASS\n1 0 0 0 0 W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9 W9\nPASS\n2 W5\n"
    out = majiang("botzone", "--bot", "strong", stdin=request).stdout
    assert out.strip() == "HU", out
    print("botzone: the strong bot declares its win")


def check_learning() -> None:
    import majiang as mj

    env = mj.env.VecEnv("gb", 8, opponents="efficiency", seed=0)
    hands = 0
    for _ in range(300):
        _, _, _, done = env.step(env.sample_legal(seed=1))
        hands += int(done.sum())
    assert env.obs.shape == (8, 86, 34) and hands > 0
    print(f"learning: VecEnv stepped 8 tables 300 times, {hands} hands finished")
    command = install_command_of(
        [sys.executable, "-c", "import majiang as mj; mj.env.MahjongEnv"], "rl"
    )
    print(f"learning: without Gymnasium MahjongEnv says `{command}`, which installs it")
    code = (
        "import majiang as mj\n"
        "env = mj.env.MahjongEnv('gb')\n"
        "obs, info = env.reset(seed=0)\n"
        "assert obs['observation'].shape == (86, 34)\n"
        "obs, reward, terminated, truncated, info = env.step(int(obs['action_mask'].argmax()))\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=WORK, timeout=300)
    print("learning: the Gymnasium environment resets and steps")


def install_command_of(argv: list[str], extra: str) -> str:
    """Runs `argv`, which must fail for want of `extra`, finds the install command its
    error names, runs that command as printed and returns it."""
    proc = subprocess.run(argv, capture_output=True, text=True, cwd=WORK, timeout=300)
    assert proc.returncode != 0, f"{argv} ran without the {extra} extra"
    m = re.search(rf'pip install "majiang\[{extra}\]"', proc.stderr)
    assert m, f"{argv} does not name the install command of [{extra}]:\n{proc.stderr}"
    command = shlex.split(m.group(0))
    subprocess.run([sys.executable, "-m", *command, "-q"], check=True, cwd=WORK, timeout=900)
    return m.group(0)


def play_in_pty(args: list[str], seconds: float = 60.0) -> str:
    """Starts ``majiang play ARGS`` in a pseudo-terminal, waits for the person's turn,
    quits with ``q`` ``y`` and returns the screen text; fails if it does not exit."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 36, 110, 0, 0))
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="110", LINES="36")
    env.pop("NO_COLOR", None)
    exe = Path(sys.executable).parent / "majiang"

    def controlling_tty() -> None:
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    proc = subprocess.Popen(
        [str(exe), "play", *args],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        cwd=WORK,
        env=env,
        start_new_session=True,
        preexec_fn=controlling_tty,
    )
    os.close(slave)
    raw = b""

    def read_until(done, limit: float) -> bool:
        nonlocal raw
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    return done()
                if not chunk:
                    return done()
                raw += chunk
            if done():
                return True
        return done()

    def text() -> str:
        return CSI.sub("", raw.decode("utf-8", "replace"))

    try:
        if not read_until(lambda: "Your turn" in text(), seconds):
            raise AssertionError("majiang play never showed the person's turn:\n" + text()[-3000:])
        screen = text()
        os.write(master, b"q")
        time.sleep(0.5)
        os.write(master, b"y")
        read_until(lambda: proc.poll() is not None, 30)
        code = proc.wait(timeout=30)
        assert code == 0, f"majiang play exited {code}:\n{text()[-3000:]}"
        return screen
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)


def check_play() -> None:
    try:
        import textual  # noqa: F401

        raise AssertionError("Textual is installed already: the message is not tested")
    except ImportError:
        pass
    command = install_command_of([str(Path(sys.executable).parent / "majiang"), "play"], "ui")
    print(f"play: without Textual it says `{command}`, which installs it")
    screen = play_in_pty(["--ascii", "--seed", "5", "--level", "easy", "--delay", "0"])
    tiles = re.findall(r"(?<![0-9A-Za-z])[1-9][mpsz](?![0-9A-Za-z])", screen)
    assert len(tiles) >= 13, screen
    print("play: the game starts in a terminal, shows the hand and quits on q y")


def main() -> int:
    check_environment()
    check_oracle()
    check_simulate()
    check_botzone()
    check_learning()
    check_play()
    shutil.rmtree(WORK, ignore_errors=True)
    print("wheel smoke test: every job ran from the wheel")
    return 0


if __name__ == "__main__":
    sys.exit(main())
