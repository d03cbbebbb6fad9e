"""The attack suite: hostile programs, hostile files and two writers, as an attacker or an
unlucky user would meet them (docs/robustness.md). One test per guarantee:

1. external Botzone programs are contained (deadline, output, process group, restart,
   fallback, time limit);
2. inputs are bounded everywhere (``majiang botzone``, env and batch sizes, JSON depth,
   numeric coercion, ``out=`` layouts, no ``OverflowError``);
3. shard directories cannot be damaged (lock, manifest digest, stale files, full disk,
   temporary files);
4. verification says what it proved (replay, re-simulation, signatures);

and a stress test: four hostile programs for 50 hands in the arena.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import resource
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import majiang as mj
from majiang import sim
from majiang.bots import BotzoneBot, FirstBot
from majiang.botzone import external

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

RULES = mj.RuleSet("gb", flowers=False)


# ---- helpers ------------------------------------------------------------------------------


def _program(directory: Path, name: str, body: str) -> list[str]:
    """A program file (a shell or Python script) made executable; its command."""
    path = directory / name
    path.write_text(textwrap.dedent(body).lstrip())
    path.chmod(0o755)
    return [str(path)]


def _marker() -> str:
    """A number no other process has on its command line: the children of a hostile
    program run ``sleep <marker>`` so that they can be counted."""
    return str(random.SystemRandom().randrange(10**8, 10**9))


def _count(marker: str) -> int:
    """Live processes whose command line is ``sleep <marker>``."""
    want = b"sleep\0" + marker.encode() + b"\0"
    n = 0
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/cmdline", "rb") as f:
                    n += f.read() == want
            except OSError:
                pass
    return n


def _settled(marker: str, timeout: float = 10.0) -> int:
    """The count of ``sleep <marker>`` processes once killed ones have gone (a SIGKILL
    takes effect asynchronously)."""
    end = time.monotonic() + timeout
    while (n := _count(marker)) and time.monotonic() < end:
        time.sleep(0.05)
    return n


def _play(bot, seed: int = 3, rules=RULES) -> list[float]:
    """Plays one hand with ``bot`` at seat 0 against three FirstBots; the time each of
    the bot's decisions took."""
    r = mj.Round(rules, seed=seed)
    bots = [bot, FirstBot(), FirstBot(), FirstBot()]
    took = []
    while not r.is_over:
        s = r.pending[0]
        t = time.monotonic()
        a = bots[s].act(r.observation(s))
        if s == 0:
            took.append(time.monotonic() - t)
        assert a in r.legal_actions(s)
        r.apply(s, a)
    return took


def _run(*args: str, stdin: str = "", env: dict | None = None, preexec=None, timeout=120):
    return subprocess.run(
        [sys.executable, "-m", "majiang", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        preexec_fn=preexec,
    )


# A keep-running Botzone program in Python: discards what it draws, passes otherwise.
# ``MODE`` makes it hostile after its first answer: ``silent`` never answers again,
# ``exit`` answers each request then exits (a program without keep-running), ``die``
# exits after printing the marker.
_PYBOT = """
import sys
MODE = sys.argv[1] if len(sys.argv) > 1 else ""
def answer(req):
    w = req.split()
    return "PLAY " + w[1] if w[0] == "2" else "PASS"
n = int(sys.stdin.readline())
lines = [sys.stdin.readline().strip() for _ in range(2 * n - 1)]
print(answer(lines[-1]), flush=True)
if MODE == "exit":
    sys.exit(0)
print(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<", flush=True)
if MODE == "die":
    sys.exit(0)
for line in sys.stdin:
    if MODE == "silent":
        continue
    print(answer(line.strip()), flush=True)
    print(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<", flush=True)
"""


# ---- 1. external programs contained ---------------------------------------------------------


def test_external_programs_are_contained(tmp_path):
    """A program that floods, prints no newline, hides in children, stays silent, or
    exits is cut off within one deadline per decision, killed with its whole process
    group, restarted as documented, and after ``max_failures`` in a hand replaced by the
    fallback with the reason recorded; ``time_limit`` is checked."""
    marker = _marker()
    flood = _program(tmp_path, "flood.sh", "#!/bin/sh\nexec yes PASS\n")
    no_newline = _program(tmp_path, "nonl.sh", "#!/bin/sh\nyes PASS | tr -d '\\n'\n")
    # A wrapper that does not exec: its children outlive it unless the group is killed.
    hider = _program(
        tmp_path,
        "hider.sh",
        f"#!/bin/sh\nsleep {marker} &\nsleep {marker} &\nsleep {marker}\n",
    )
    crash = _program(tmp_path, "crash.sh", "#!/bin/sh\nexit 3\n")
    pybot = _program(tmp_path, "bot.py", "#!" + sys.executable + "\n" + _PYBOT)

    limit = 0.5
    for command, reason in [
        (flood, "printed more than 1,048,576 bytes in one decision"),
        (no_newline, "printed a line longer than 65,536 bytes"),
        (hider, "did not answer in time (time_limit 0.5 s for the decision)"),
        (crash, "exited without answering (exit status 3)"),
    ]:
        with BotzoneBot(command, time_limit=limit, max_failures=2) as bot:
            took = _play(bot)
            # Two failures, then the seat plays the fallback for the rest of the hand.
            assert bot.starts == 2 and len(bot.failures) == 2, bot.failures
            assert all(f == f"hand 0: {reason}" for f in bot.failures), bot.failures
            assert len(bot.gave_up) == 1 and "after 2 failures" in bot.gave_up[0]
            assert reason in bot.gave_up[0]
            assert bot.illegal == len(took)
    # The hider's children were killed with it: none is left.
    assert _settled(marker) == 0

    # One deadline per decision, not per request: a program that goes silent after its
    # first answer costs one time limit at its next decision, however many moves that
    # decision tells it of first.
    with BotzoneBot([*pybot, "silent"], time_limit=1.0) as bot:
        r = mj.Round(RULES, seed=3)
        bots = [bot, FirstBot(), FirstBot(), FirstBot()]
        timings = []
        while not r.is_over and len(timings) < 2:
            s = r.pending[0]
            told = len(bot._requests)
            t = time.monotonic()
            a = bots[s].act(r.observation(s))
            if s == 0:
                timings.append((time.monotonic() - t, len(bot._requests) - told))
            r.apply(s, a)
        (first, _), (second, requests) = timings
        # The second decision sent several requests under one deadline: one time-out for
        # the decision, not one per request (its time is printed, never asserted).
        assert requests >= 5
        assert bot.failures == ["hand 0: did not answer in time (time_limit 1 s for the decision)"]
        print(f"silent program: second decision {second:.2f} s over {requests} requests")

    # A program that exits after each answer is started again with the history at every
    # decision, without a failure; one that dies after the marker is restarted too.
    for mode in ("exit", "die"):
        with BotzoneBot([*pybot, mode], time_limit=30) as bot:
            took = _play(bot)
            assert bot.failures == [] and bot.illegal == 0
            assert bot.starts >= len(took) - 1 > 5

    # The wrapper's children are killed at close() too, when the program itself played well.
    keeper = _program(
        tmp_path,
        "keeper.sh",
        f"#!/bin/sh\nsleep {marker} &\n{sys.executable} {tmp_path / 'bot.py'}\n",
    )
    bot = BotzoneBot(keeper, time_limit=30)
    _play(bot, seed=5)
    assert bot.failures == [] and _count(marker) == 1
    bot.close()
    assert _settled(marker) == 0

    # time_limit and max_failures are checked.
    for bad in (0, -1, float("nan"), float("inf"), 10_000):
        with pytest.raises(mj.InvalidArgumentError, match="time_limit"):
            BotzoneBot(flood, time_limit=bad)
    for bad in ("5", True, None):
        with pytest.raises(mj.InvalidTypeError, match="time_limit"):
            BotzoneBot(flood, time_limit=bad)
    with pytest.raises(mj.InvalidArgumentError, match="max_failures"):
        BotzoneBot(flood, max_failures=0)
    with pytest.raises(mj.InvalidTypeError, match="max_failures"):
        BotzoneBot(flood, max_failures=2.0)
    with pytest.raises(mj.InvalidArgumentError, match="no program"):
        BotzoneBot([str(tmp_path / "missing")])
    assert external.MAX_OUTPUT_BYTES == 1 << 20 and external.MAX_LINE_BYTES == 1 << 16


# ---- 2. inputs bounded ----------------------------------------------------------------------


def _limited(megabytes: int):
    """A preexec_fn capping the child's address space (a run that allocated what it was
    asked for would fail; one that checks first exits normally)."""

    def limit() -> None:
        size = megabytes << 20
        resource.setrlimit(resource.RLIMIT_AS, (size, size))

    return limit


def test_inputs_are_bounded_everywhere(tmp_path):
    """Turn counts, line lengths, echoed text, JSON depth, sizes, numeric types and
    array layouts are checked before anything is allocated or played."""
    # majiang botzone: every bad input ends at once with exit status 2 and a short message.
    deep = "[" * 100_000 + "]" * 100_000 + "\n"
    cases = [
        ("1000000000000\n", [], "the turn number must be 1-2000"),
        ("1000000000000\n", ["--keep-running"], "the turn number must be 1-2000"),
        ("3\n0 0 0\nPASS\n", [], "the input ends after 2 of the 5 lines"),
        ("x" * 10_000_000 + "\n", [], "an input line longer than 4,096 characters"),
        ("1\n" + "W1 " * 3_000_000 + "\n", [], "an input line longer than"),
        (deep, ["--io", "json"], "nested 100000 levels deep"),
        (
            "2\n0 0 0\nPASS\n1 0 0 0 0 W1 W1 W1 W1 W1 W2 W3 B4 B5 B6 T7 T8 T9\n",
            [],
            "a fifth W1",
        ),
        (
            "4\n0 1 0\nPASS\n1 0 0 0 0 W1 W2 W3 W4 W5 W6 T7 T8 T9 F1 F1 J1 J2\nPASS\n"
            "3 0 PLAY W5\nPASS\n3 0 CHI F2 W1\n",
            [],
            "F2 cannot be the middle of a chow",
        ),
    ]
    for stdin, args, words in cases:
        out = _run("botzone", *args, stdin=stdin)
        assert out.returncode == 2 and words in out.stderr, (words, out.stderr[:300])
        assert len(out.stderr) < 400 and "Traceback" not in out.stderr

    # Sizes are checked before allocation: under a 1.5 GB address-space limit these end
    # with the error, where allocating first aborted the interpreter.
    code = textwrap.dedent(
        """
        import majiang as mj
        for call in (
            lambda: mj.env.VecEnv("gb", 10**7),
            lambda: mj.simulate(10**13, out="never", shard_hands=10**12),
            lambda: mj.simulate(10**9),
        ):
            try:
                call()
            except mj.InvalidArgumentError as e:
                print(type(e).__name__, e)
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        preexec_fn=_limited(1536),
    )
    assert out.returncode == 0, out.stderr[-500:]
    said = out.stdout.splitlines()
    assert len(said) == 3, said
    assert said[0].startswith("InvalidArgumentError num_envs must be between 1 and 65536")
    assert said[1].startswith("InvalidArgumentError shard_hands must be between 1 and 1,000,000")
    assert said[2].startswith("InvalidArgumentError n_hands=1,000,000,000 is more than")
    assert not (tmp_path / "never").exists()
    with pytest.raises(mj.InvalidArgumentError, match="walls must be between 1 and 5,000,000"):
        mj.ladder("random,efficiency", walls=10**12)

    # JSON nested 100,000 deep: a clear error from every reader, never RecursionError.
    run = tmp_path / "run"
    mj.simulate(40, seed=1, out=run, shard_hands=20)
    (run / "manifest.json").write_text(deep)
    with pytest.raises(mj.ResultFileError, match="nested 100000 levels deep"):
        mj.SimResult.load(run)
    with pytest.raises(mj.LogError, match="nested 100000 levels deep"):
        mj.botzone.parse_log(deep)
    (tmp_path / "deep.json").write_text('{"log": ' + deep)
    out = _run("replay", str(tmp_path / "deep.json"))
    assert out.returncode == 2 and "Traceback" not in out.stderr

    # No silent numeric coercion: floats, bools and complex numbers are refused.
    hand = np.zeros((1, 34), np.uint8)
    hand[0, :13] = 1
    for flags in (1.9, True, np.array([1j])):
        with pytest.raises(mj.InvalidTypeError, match="flags must be ints"):
            mj.evaluate_fan_batch(hand, [12], flags=flags)
    env = mj.env.VecEnv("gb", 2, seed=1, threads=1)
    for actions in ([3.9, 0], np.array([3.0, 0.0]), [True, False]):
        with pytest.raises(mj.InvalidTypeError, match="actions"):
            env.step(actions)
    with pytest.raises(mj.InvalidArgumentError, match="threads must be"):
        mj.env.VecEnv("gb", 2, threads=0)  # as simulate: threads=None means every core

    # out= arrays: a Fortran-ordered, strided, read-only or wrongly typed array is
    # refused; a C-contiguous one is written exactly as a new array.
    obs = mj.Round("gb", seed=1).observation(0)
    want = mj.env.encode(obs)
    readonly = np.zeros_like(want)
    readonly.flags.writeable = False
    for out_arr, err in [
        (np.zeros(want.shape, np.uint8, order="F"), mj.InvalidArgumentError),
        (np.zeros((want.shape[0], 68), np.uint8)[:, ::2], mj.InvalidArgumentError),
        (readonly, mj.InvalidArgumentError),
        (np.zeros(want.shape, np.float32), mj.InvalidTypeError),
    ]:
        with pytest.raises(err):
            mj.env.encode(obs, out=out_arr)
    good = np.full(want.shape, 7, np.uint8)
    assert np.array_equal(mj.env.encode(obs, out=good), want)

    # OverflowError never reaches a user: huge integers are out of range, by name.
    for call in (
        lambda: mj.Round("gb", seed=2**200),
        lambda: mj.Match("gb", hands=-(2**80)),
        lambda: mj.env.VecEnv("gb", 2**70),
        lambda: env.round(2**64),
        lambda: mj.evaluate_fan_batch(hand, [12], flags=10**30),
        lambda: mj.simulate(2**70),
    ):
        with pytest.raises(mj.MajiangError) as e:
            call()
        assert not isinstance(e.value, OverflowError)

    # A second thread stepping the same env gets UsageError, not "Already borrowed".
    big = mj.env.VecEnv("gb", 2048, seed=2, threads=1)
    stop = threading.Event()
    errors: list[BaseException] = []

    def step() -> None:
        while not stop.is_set():
            try:
                big.step(big.sample_legal())
            except BaseException as e:
                errors.append(e)

    worker = threading.Thread(target=step)
    worker.start()
    try:
        mine = None
        for _ in range(2000):
            try:
                big.sample_legal()
            except mj.UsageError as e:
                mine = e
                break
    finally:
        stop.set()
        worker.join()
    assert mine is not None and "in use by another thread" in str(mine)
    assert all(isinstance(e, mj.UsageError) for e in errors)


# ---- 3. shard directories -----------------------------------------------------------------


def _redigest(m: dict) -> dict:
    m["digest"] = "sha256:" + hashlib.sha256(sim._canonical(m, "digest", "signature")).hexdigest()
    return m


def test_shard_directories_cannot_be_damaged(tmp_path):
    """Two writers, an edited manifest, leftovers of a killed writer, a full disk and
    planted symbolic links leave every directory loadable, resumable and the victim's
    files intact."""
    # A second writer is refused at once, naming the holder: here the first holds the
    # directory in this process while a user starts `majiang simulate --resume` on it.
    run = tmp_path / "run"
    mj.simulate(3000, bots="random", out=run, shard_hands=1000)
    writer = sim._ShardWriter(run, mj.SimResult.load(run)._meta(), True)
    try:
        second = _run(
            "simulate",
            "-q",
            "-n",
            "5000",
            "--shard-hands",
            "1000",
            "--bots",
            "random",
            "--out",
            str(run),
            "--resume",
        )
        assert second.returncode == 2
        assert f"is being written by another process (pid {os.getpid()}" in second.stderr
        # In one process too (another simulate call while the first runs).
        with pytest.raises(mj.ResultFileError, match="another simulate"):
            mj.simulate(5000, bots="random", out=run, resume=True)
    finally:
        writer.close()
    # Two processes resuming into the same directory at once: whichever comes second is
    # refused or finds the run done; the directory always loads, resumes and holds the
    # arrays of one uninterrupted run.
    args = [
        sys.executable,
        "-m",
        "majiang",
        "simulate",
        "-q",
        "-n",
        "40000",
        "--shard-hands",
        "1000",
        "--bots",
        "random",
        "--out",
        str(run),
        "--resume",
    ]
    both = [
        subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    codes = [p.wait(timeout=300) for p in both]
    errs = [p.stderr.read() for p in both]
    assert 0 in codes and set(codes) <= {0, 2}, (codes, errs)
    for code, err in zip(codes, errs, strict=True):
        assert code == 0 or "is being written by another process" in err, err
    assert mj.SimResult.load(run).equals(mj.simulate(40_000, bots="random"))
    mj.simulate(41_000, bots="random", out=run, resume=True, shard_hands=1000)

    # The manifest's own fields are inside its digest: an edited seed is caught, and an
    # edit whose digest was recomputed still meets every field's check.
    small = tmp_path / "small"
    mj.simulate(600, seed=3, out=small, shard_hands=200)
    m = json.loads((small / "manifest.json").read_text())
    for edit, words in [
        (lambda x: x.update(seed=4), "digest does not match its fields"),
        (lambda x: _redigest({**x, "bots": ["random"] * 3 + ["genius"]}), "unknown bot"),
        (lambda x: _redigest({**x, "rules": "huainan"}), "the rules 'huainan'"),
    ]:
        edited = json.loads(json.dumps(m))
        result = edit(edited)
        (small / "manifest.json").write_text(json.dumps(result or edited))
        with pytest.raises(mj.ResultFileError, match=words):
            mj.SimResult.load(small)
    (small / "manifest.json").write_text(json.dumps(m))

    # Leftovers of a writer killed mid-write are removed on resume; a symbolic link among
    # them is removed, not followed.
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    leftovers = [
        ".manifest.json.4242.tmp",
        ".manifest.json.x7Yq_b2.tmp",
        ".hands-000000000600.npz.k3j2h1.tmp",
        ".majiang-probe-4242",
        "hands-000000000600.npz",
    ]
    for name in leftovers[:-1]:
        (small / name).write_bytes(b"junk")
    (small / leftovers[-1]).symlink_to(victim)
    again = mj.simulate(800, seed=3, out=small, shard_hands=200, resume=True)
    names = sorted(p.name for p in small.iterdir())
    assert not set(leftovers[:-1]) & set(names), names
    # The unlisted shard (a link here) was removed and the run wrote its own.
    assert not (small / leftovers[-1]).is_symlink()
    assert victim.read_text() == "precious"
    assert again.equals(mj.simulate(800, seed=3))

    # A full disk: the error names the file and says resume continues; resuming with
    # room gives the arrays of one uninterrupted run. (A file size limit below a shard's
    # size stands in for the disk: writes past it fail as they would on a full disk.)
    full = tmp_path / "full"
    mj.simulate(3000, out=full, shard_hands=1000)

    def little_room() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    out = _run(
        "simulate",
        "-q",
        "-n",
        "6000",
        "--shard-hands",
        "1000",
        "--out",
        str(full),
        "--resume",
        preexec=little_room,
    )
    assert out.returncode == 2, out.stderr
    assert str(full / "hands-000000003000.npz") in out.stderr, out.stderr
    assert "the file size limit is reached" in out.stderr and "resume=True" in out.stderr
    assert "the 3,000 hands written before are intact" in out.stderr
    assert "Traceback" not in out.stderr
    assert len(mj.SimResult.load(full)) == 3000
    out = _run(
        "simulate", "-q", "-n", "6000", "--shard-hands", "1000", "--out", str(full), "--resume"
    )
    assert out.returncode == 0, out.stderr
    assert mj.SimResult.load(full).equals(mj.simulate(6000))

    # Temporary files are created safely: a symbolic link planted where a save, the
    # probe or a Botzone log used to write through a predictable name is not followed.
    shared = tmp_path / "shared"
    shared.mkdir()
    pid = os.getpid()
    for name in (f".r.npz.{pid}.tmp", f".majiang-probe-{pid}", f".log.json.{pid}.tmp"):
        (shared / name).symlink_to(victim)
    (shared / "r.npz").symlink_to(victim)  # the target itself: replaced, not followed
    mj.simulate(10, seed=1).save(shared / "r.npz")
    assert victim.read_text() == "precious"
    assert not (shared / "r.npz").is_symlink() and mj.SimResult.load(shared / "r.npz")
    record = mj.Game(mj.botzone.rules(), [FirstBot()] * 4, seed=2, hands=1).play()
    log = shared / "log.json"
    mj.botzone.write_log(record, log)
    before = log.read_bytes()
    # A write that fails leaves the previous log whole (write_log and botzone export).
    real = os.fsync

    def full_disk(fd: int) -> None:
        raise OSError(28, "No space left on device")

    os.fsync = full_disk
    try:
        with pytest.raises(OSError, match="No space"):
            mj.botzone.write_log(record, log)
        rec_path = shared / "m.jsonl"
        os.fsync = real
        record.save(rec_path)
        os.fsync = full_disk
        from majiang.cli import main

        assert main(["botzone", "export", str(rec_path), "-o", str(log)]) == 2
    finally:
        os.fsync = real
    assert log.read_bytes() == before
    assert victim.read_text() == "precious"
    assert not [p for p in shared.iterdir() if p.name.endswith(".tmp") and not p.is_symlink()]


# ---- 4. verification that says what it proved ------------------------------------------------


def test_verification_says_what_it_proved(tmp_path):
    """Replay says where the deals came from and what was checked, names print safely,
    a shard directory is re-simulated from its seed, and a signature needs the key."""
    from test_botzone_log import LOG

    # A hand dealt from walls the file gives "verifies", but says so; --require-seed
    # refuses it.
    log = tmp_path / "log.json"
    hostile = dict(LOG, players=[{"name": "\x1b[2J\x1b[31mowned\x07"}] + [{"name": "b"}] * 3)
    log.write_text(json.dumps(hostile))
    out = _run("replay", "--verify", "--all", "--text", str(log))
    assert out.returncode == 0, out.stderr
    assert "deals: from the walls the file gives, not from the seed" in out.stdout
    assert "digest: none: a Botzone log carries no digest" in out.stdout
    assert "\x1b" not in out.stdout and "\x07" not in out.stdout
    assert "\\x1b[2J\\x1b[31mowned\\x07" in out.stdout
    out = _run("replay", "--verify", "--require-seed", "--all", "--text", str(log))
    assert out.returncode == 1 and "not the wall its seed" in out.stderr

    # A record of majiang's own: deals from the seed and a digest checked; with its
    # trailer deleted it still verifies, and says no digest was checked.
    record = mj.Game(RULES, [FirstBot()] * 4, seed=5, hands=2).play()
    path = tmp_path / "m.jsonl"
    record.save(path)
    out = _run("replay", "--verify", "--all", "--text", "--require-seed", str(path))
    assert out.returncode == 0, out.stderr
    assert "deals: from the seed" in out.stdout
    assert "digest: the trailer's SHA-256 of every line matched" in out.stdout
    assert "signature: none" in out.stdout
    lines = path.read_text().splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[:-1]))
    out = _run("replay", "--verify", "--all", "--text", str(cut))
    assert out.returncode == 0 and "digest: none checked: the record has no trailer" in out.stdout

    # Signed records: checked with the key; an edit whose digest was recomputed, another
    # key, or no signature at all are refused.
    key = mj.signing.new_key()
    key_file = tmp_path / "key"
    key_file.write_text(key + "\n")
    signed = tmp_path / "signed.jsonl"
    record.save(signed, key=key)
    assert mj.MatchRecord.load(signed, key=key).signature == "checked"
    assert mj.MatchRecord.load(signed).signature == "not checked"
    out = _run("replay", "--verify", "--all", "--text", "--key-file", str(key_file), str(signed))
    assert out.returncode == 0 and "signature: checked with your key" in out.stdout
    forged = mj.MatchRecord.load(signed)
    forged.players = ["Forger", "b", "c", "d"]
    text = forged.to_json()  # a fresh, valid digest; the old signature dropped
    trailer = json.loads(text.splitlines()[-1])
    trailer["signature"] = json.loads(signed.read_text().splitlines()[-1])["signature"]
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("".join(text.splitlines(keepends=True)[:-1]) + json.dumps(trailer) + "\n")
    assert mj.MatchRecord.load(tampered).players[0] == "Forger"  # the digest holds
    for file, words in [
        (tampered, "signature does not match"),
        (path, "not signed"),
        (cut, "no trailer"),
    ]:
        with pytest.raises(mj.RecordError, match=words):
            mj.MatchRecord.load(file, key=key)
    with pytest.raises(mj.RecordError, match="signature does not match"):
        mj.MatchRecord.load(signed, key=mj.signing.new_key())
    with pytest.raises(mj.InvalidArgumentError, match="at least 16 bytes"):
        mj.MatchRecord.load(signed, key="short")

    # A shard directory re-simulated from its seed: all hands, or a stated sample. Hands
    # changed by someone who also fixed the shard's SHA-256 and the manifest's digest load
    # fine, and the re-simulation finds them.
    run = tmp_path / "run"
    mj.simulate(3000, seed=7, out=run, shard_hands=1000, key=key)
    check = mj.SimResult.load(run, key=key).verify()
    assert check.ok and check.checked == 3000 and not check.sampled
    assert check.signature == "checked" and check.manifest_digest
    m = json.loads((run / "manifest.json").read_text())
    shard = run / m["shards"][1]["file"]
    with np.load(shard) as z:
        arrays = {k: z[k] for k in z.files}
    arrays["scores"] = arrays["scores"].copy()
    arrays["scores"][[10, 500], 0] += 1  # moved between two seats: still sums to 0
    arrays["scores"][[10, 500], 1] -= 1
    data = sim._npz_bytes(arrays)
    shard.write_bytes(data)
    m["shards"][1]["sha256"] = hashlib.sha256(data).hexdigest()
    del m["signature"]
    (run / "manifest.json").write_text(json.dumps(_redigest(m)))
    loaded = mj.SimResult.load(run)
    assert loaded.verify().first_differing == [1010, 1500]
    sample = loaded.verify(sample=50, random_seed=1)
    assert sample.sampled and sample.checked == 50
    assert "a random sample of 50 of the 3,000 hands" in sample.describe()
    with pytest.raises(mj.ResultFileError, match="not signed"):
        mj.SimResult.load(run, key=key)
    out = _run("simulate", "--verify", str(run), "--sample", "3000")
    assert out.returncode == 1 and "2 hands differ" in out.stdout and "1010, 1500" in out.stdout
    out = _run("simulate", "--verify", str(run), "--key-file", str(key_file))
    assert out.returncode == 2 and "not signed" in out.stderr


# ---- the stress test ------------------------------------------------------------------------

_STRESS = """
import json, sys, time
import majiang as mj
from majiang.bots import BotzoneBot

def peak_rss_mb():
    # This process's own peak (ru_maxrss would also count the test runner it was
    # forked from, which Linux carries across exec).
    with open("/proc/self/status") as f:
        return next(int(x.split()[1]) for x in f if x.startswith("VmHWM:")) / 1024

commands = json.loads(sys.argv[1])
bots = [BotzoneBot(c, time_limit=0.1, max_failures=2) for c in commands]
t = time.monotonic()
r = mj.arena(bots, hands=50, seed=9, rules=mj.botzone.rules())
took = time.monotonic() - t
for b in bots:
    b.close()
print(json.dumps({
    "hands": len(r),
    "seconds": took,
    "rss_mb": peak_rss_mb(),
    "invalid": r.invalid,
    "starts": [b.starts for b in bots],
    "gave_up": [len(b.gave_up) for b in bots],
}))
"""


def test_stress_four_hostile_programs_for_fifty_hands(tmp_path):
    """Four hostile programs (a flood, a line without end, a silent wrapper whose
    children hide, a crash) play 50 hands in the arena: the run ends in bounded time and
    memory, every hand is played by the fallbacks, and no process is left behind."""
    marker = _marker()
    commands = [
        _program(tmp_path, "flood.sh", "#!/bin/sh\nexec yes PASS\n"),
        _program(tmp_path, "nonl.sh", "#!/bin/sh\nyes HU | tr -d '\\n'\n"),
        _program(tmp_path, "hider.sh", f"#!/bin/sh\nsleep {marker} &\nsleep {marker}\n"),
        _program(tmp_path, "crash.sh", "#!/bin/sh\nexit 1\n"),
    ]
    t = time.monotonic()
    out = subprocess.run(
        [sys.executable, "-c", _STRESS, json.dumps(commands)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    wall = time.monotonic() - t
    assert out.returncode == 0, out.stderr[-2000:]
    got = json.loads(out.stdout)
    assert got["hands"] == 52  # 50 rounded up to whole walls of four games
    # Each program is given up after two failures in every hand it plays.
    assert got["gave_up"] == [52, 52, 52, 52] and got["starts"] == [104] * 4
    assert all(n > 0 for n in got["invalid"])
    # Bounded: every program is given up after two time limits of 0.1 s per hand (the
    # counts above), so the run ends (the subprocess timeout guards a hang; the time is
    # printed, never asserted); and the parent's memory stays small (the flood alone once
    # took it past a gigabyte).
    assert got["rss_mb"] < 400
    assert _settled(marker) == 0
    print(f"stress: {got}, {wall:.1f} s with the interpreter")
