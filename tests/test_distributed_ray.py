"""majiang.distributed on a local Ray instance (two CPUs): every workload equals one
machine's run; a worker killed mid-shard (``os.kill`` on its own pid, from the task) is
retried, or fails its shard, and the run resumes to the identical result; a failing
shard is reported with its range, node and the worker's error.

Faults are injected by replacing the task function the driver ships (this module is
pickled by value, so the workers run the replacement) with one that kills or fails its
worker on the first attempt of one shard."""

import json
import os
import signal
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

import majiang as mj
from majiang.distributed import _arena, _convert, _simulate

ray = pytest.importorskip(
    "ray", reason="Ray is not installed (pip install 'majiang[ray]' to run this test)"
)
from majiang import distributed  # noqa: E402  (after the skip: it needs no Ray to import)

ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])

BOTS = "random"
COLUMNS = ("wall", "seats", "winner", "discarder", "fan_total", "scores")


@pytest.fixture(scope="module", autouse=True)
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, ignore_reinit_error=True, log_to_driver=False)
    yield
    ray.shutdown()


def _once(marker: str) -> bool:
    """True the first time it is asked for ``marker`` (a file), in any process."""
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return False
    os.close(fd)
    return True


def _faulty(real, victim: int, marker: str, fault: str, at: int = 1):
    """``real`` (a task function whose argument ``at`` is the shard's first hand or game
    or input), except that the first attempt of shard ``victim`` meets ``fault``."""

    def task(*args):
        if args[at] == victim and _once(marker):
            if fault == "kill-while-playing":
                threading.Timer(0.05, os.kill, (os.getpid(), signal.SIGKILL)).start()
            elif fault == "kill-while-writing":
                from majiang import _files, sim

                def dying_write(target, data):
                    with _files.AtomicFile(target) as f:
                        f.write(data[: len(data) // 2])
                        f.flush()
                        os.kill(os.getpid(), signal.SIGKILL)

                sim._atomic_write = dying_write
            elif fault == "raise":
                raise OSError(5, "Input/output error on the scratch disk")
            elif fault == "tamper":
                out = real(*args)
                with open(Path(args[0]) / out["entry"]["file"], "r+b") as f:
                    f.seek(200)
                    f.write(b"\x00\x01\x02")
                return out
        return real(*args)

    return task


def test_a_streamed_run_equals_one_machines_and_either_resumes_the_other(tmp_path, capfd):
    one = mj.simulate(30_000, bots=BOTS, seed=5, out=tmp_path / "one", shard_hands=4_000)
    run = distributed.simulate(
        30_000, bots=BOTS, seed=5, out=tmp_path / "run", shard_hands=4_000, progress=True
    )
    assert run.equals(one) and mj.SimResult.load(tmp_path / "run").equals(one)
    # The same directory, byte for byte: the manifest and every shard.
    for name in sorted(p.name for p in (tmp_path / "one").iterdir() if p.name != ".lock"):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "run" / name).read_bytes()
    err = capfd.readouterr().err
    assert "simulate: 30,000/30,000 hands (100.0%)" in err and "hands/s" in err
    # A cluster run resumes a one-machine run ...
    mj.simulate(9_000, bots=BOTS, seed=5, out=tmp_path / "a", shard_hands=2_000)
    grown = distributed.simulate(
        30_000, bots=BOTS, seed=5, out=tmp_path / "a", shard_hands=4_000, resume=True
    )
    assert grown.equals(one)
    # ... and a finished run resumed plays nothing more.
    again = distributed.simulate(30_000, bots=BOTS, seed=5, out=tmp_path / "a", resume=True)
    assert again.equals(one)
    # The same checks as one machine: another run is refused, so is a second writer.
    with pytest.raises(mj.ResultFileError, match="seed"):
        distributed.simulate(30_000, bots=BOTS, seed=6, out=tmp_path / "a", resume=True)
    with pytest.raises(mj.ResultFileError, match="already holds a run"):
        distributed.simulate(100, bots=BOTS, seed=5, out=tmp_path / "a")
    with pytest.raises(ValueError, match="shards= cuts a run kept in memory"):
        distributed.simulate(100, out=tmp_path / "b", shards=4)
    # A signed run: the driver signs the manifest it writes; either kind of run resumes
    # it with the key only.
    key = mj.signing.new_key()
    distributed.simulate(6_000, bots=BOTS, seed=5, out=tmp_path / "s", shard_hands=2_000, key=key)
    with pytest.raises(mj.ResultFileError, match="signed run"):
        mj.simulate(9_000, bots=BOTS, seed=5, out=tmp_path / "s", resume=True)
    mj.simulate(9_000, bots=BOTS, seed=5, out=tmp_path / "s", resume=True, key=key)
    signed = mj.SimResult.load(tmp_path / "s", key=key)
    assert signed.equals(mj.simulate(9_000, bots=BOTS, seed=5))
    assert signed.verify(sample=20).signature == "checked"


def test_a_worker_failing_its_shard_stops_the_run_and_one_machine_resumes_it(
    tmp_path, monkeypatch, capfd
):
    monkeypatch.setattr(
        _simulate,
        "_write_hands",
        _faulty(_simulate._write_hands, 8_000, str(tmp_path / "once"), "raise"),
    )
    out = tmp_path / "run"
    with pytest.raises(mj.ShardError) as info:
        distributed.simulate(24_000, bots=BOTS, seed=2, out=out, shard_hands=4_000)
    e = info.value
    assert (e.shard, e.first, e.count, e.unit) == ("hands 8,000 to 11,999", 8_000, 4_000, "hands")
    assert e.error == "OSError: [Errno 5] Input/output error on the scratch disk"
    assert e.node and e.node in str(e)
    assert "the shard of hands 8,000 to 11,999 failed on" in str(e) and "resume=True" in str(e)
    assert isinstance(e.__cause__, OSError)
    assert "the shard of hands 8,000 to 11,999 failed" in capfd.readouterr().err
    # The run kept the shards before the failing one (those after it, when they
    # finished, wait as pending) and reads as the hands from 0 on.
    assert len(e.partial) == 8_000 and e.partial.equals(mj.simulate(8_000, bots=BOTS, seed=2))
    m = json.loads((out / "manifest.json").read_text())
    assert all(s["start"] > 8_000 for s in m.get("pending", []))
    done = mj.simulate(24_000, bots=BOTS, seed=2, out=out, resume=True, shard_hands=4_000)
    assert done.equals(mj.simulate(24_000, bots=BOTS, seed=2))


@pytest.mark.parametrize("fault", ["kill-while-playing", "kill-while-writing"])
def test_a_worker_killed_mid_shard_is_retried_to_the_identical_result(tmp_path, monkeypatch, fault):
    marker = tmp_path / "killed"
    monkeypatch.setattr(
        _simulate, "_write_hands", _faulty(_simulate._write_hands, 20_000, str(marker), fault)
    )
    out = tmp_path / "run"
    run = distributed.simulate(60_000, bots=BOTS, seed=4, out=out, shard_hands=20_000)
    assert marker.exists()  # the worker was killed once ...
    assert run.equals(mj.simulate(60_000, bots=BOTS, seed=4))  # ... and Ray played it again
    assert mj.SimResult.load(out).verify(sample=50).ok
    # Nothing half written is left.
    assert sorted(p.name for p in out.iterdir()) == [
        ".lock",
        "hands-000000000000.npz",
        "hands-000000020000.npz",
        "hands-000000040000.npz",
        "manifest.json",
    ]


def test_a_worker_killed_past_its_retries_fails_the_shard_and_resume_completes(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(
        _simulate,
        "_write_hands",
        _faulty(_simulate._write_hands, 10_000, str(tmp_path / "killed"), "kill-while-writing"),
    )
    out = tmp_path / "run"
    with pytest.raises(mj.ShardError, match=r"hands 10,000 to 14,999 failed.*Worker") as info:
        distributed.simulate(25_000, bots=BOTS, seed=8, out=out, shard_hands=5_000, max_retries=0)
    assert "WorkerCrashedError" in info.value.error
    assert len(info.value.partial) == 10_000
    monkeypatch.undo()
    done = distributed.simulate(25_000, bots=BOTS, seed=8, out=out, shard_hands=5_000, resume=True)
    assert done.equals(mj.simulate(25_000, bots=BOTS, seed=8))
    assert not [p.name for p in out.iterdir() if p.name.endswith(".tmp")]


def test_a_shard_changed_after_its_worker_wrote_it_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(
        _simulate,
        "_write_hands",
        _faulty(_simulate._write_hands, 3_000, str(tmp_path / "once"), "tamper"),
    )
    out = tmp_path / "run"
    with pytest.raises(mj.ShardError, match="SHA-256 here is not the one the worker computed"):
        distributed.simulate(9_000, bots=BOTS, seed=1, out=out, shard_hands=3_000)
    done = distributed.simulate(9_000, bots=BOTS, seed=1, out=out, shard_hands=3_000, resume=True)
    assert done.equals(mj.simulate(9_000, bots=BOTS, seed=1))


def test_a_run_kept_in_memory_equals_one_machines(tmp_path, monkeypatch):
    local = mj.simulate(1_000, bots="efficiency,random,efficiency,random", seed=99)
    remote = distributed.simulate(
        1_000, bots="efficiency,random,efficiency,random", seed=99, shards=3
    )
    assert remote.equals(local) and remote.summary() == local.summary()
    rules = mj.RuleSet("huainan", cap=32)
    shipped = distributed.simulate(200, rules=rules, seed=7, shards=2)
    assert shipped.equals(mj.simulate(200, rules=rules, seed=7))
    assert shipped.rule_set() == rules
    monkeypatch.setattr(
        _simulate,
        "_play_shard",
        _faulty(_simulate._play_shard, 500, str(tmp_path / "once"), "raise", at=0),
    )
    with pytest.raises(mj.ShardError, match="hands 500 to 999 failed.*keeps nothing") as info:
        distributed.simulate(1_000, bots=BOTS, shards=2)
    assert info.value.partial is None and info.value.error.startswith("OSError")


class ReseedingBot:
    """A Python bot whose play depends only on the game: it reseeds from begin_hand, and
    counts (as ``illegal``) the decisions with more than six legal actions."""

    name = "reseeding"

    def __init__(self):
        import random

        self.rng = random.Random(0)
        self.illegal = 0

    def begin_hand(self, seed):
        self.rng.seed(seed)

    def act(self, observation):
        legal = observation.legal_actions
        if len(legal) > 6:
            self.illegal += 1
        return self.rng.choice(legal)


class FailingBot(ReseedingBot):
    name = "failing"

    def __init__(self, at):
        super().__init__()
        self.at = at
        self.games = 0

    def begin_hand(self, seed):
        super().begin_hand(seed)
        self.games += 1

    def act(self, observation):
        if self.games > self.at:
            raise RuntimeError("out of ideas")
        return super().act(observation)


def _same_arena(a, b):
    assert all(np.array_equal(getattr(a, c), getattr(b, c)) for c in COLUMNS)
    assert a.summary() == b.summary() and a.invalid == b.invalid


def test_arena_and_ladder_equal_one_machines(capfd):
    bots = "efficiency,random,random,efficiency"
    for duplicate in (True, False):
        d = distributed.arena(bots, hands=402, seed=3, shards=3, duplicate=duplicate, progress=True)
        _same_arena(d, mj.arena(bots, hands=402, seed=3, duplicate=duplicate))
    assert "arena: 404/404 games (100.0%)" in capfd.readouterr().err
    # Python bots shipped pickled, each task with its own copy; their counts summed.
    entries = [ReseedingBot(), "random", "efficiency", ReseedingBot()]
    d = distributed.arena(entries, hands=120, seed=4, shards=4)
    one = mj.arena([ReseedingBot(), "random", "efficiency", ReseedingBot()], hands=120, seed=4)
    _same_arena(d, one)
    assert d.invalid[0] > 0 and d.invalid[1] is None
    lad = distributed.ladder(["random", "efficiency", "strong_lite"], walls=12, seed=2, shards=3)
    ref = mj.ladder(["random", "efficiency", "strong_lite"], walls=12, seed=2)
    for field in ("mean", "low", "high", "ratings"):
        assert np.array_equal(getattr(lad, field), getattr(ref, field), equal_nan=True), field
    assert lad.to_dict() == ref.to_dict()


def test_arena_failures_name_the_games_and_the_bots_error():
    with pytest.raises(mj.InvalidArgumentError, match="bot 0 .* does not pickle"):
        distributed.arena([mj.bots.EfficiencyBot(seed=1), "random", "random", "random"], hands=8)
    # Each task plays with its own copy of the bot: each copy fails in its fourth game,
    # and the error names the first shard to fail.
    with pytest.raises(mj.ShardError, match=r"games (0 to 7|8 to 15|16 to 23) failed on ") as info:
        distributed.arena(["random", FailingBot(at=3), "random", "random"], hands=24, shards=3)
    e = info.value
    assert e.failed == 3 and "3 shards failed" in str(e) and e.unit == "games"
    assert "BotError: bot 1 (failing) raised RuntimeError" in e.error
    assert isinstance(e.__cause__, mj.BotError)
    assert (e.__cause__.game, e.__cause__.bot) == (e.first + 3, 1)


def test_a_failing_ladder_shard_keeps_the_pairs_finished(tmp_path, monkeypatch):
    monkeypatch.setattr(
        _arena,
        "_play_games",
        _faulty(_arena._play_games, 0, str(tmp_path / "once"), "raise", at=0),
    )
    with pytest.raises(mj.ShardError, match=r"against three .* games 0 to 7 failed") as info:
        distributed.ladder(["random", "efficiency"], walls=4, seed=1, shards=2)
    partial = info.value.partial
    assert not partial.complete and np.isfinite(partial.mean).sum() == 1
    ref = mj.ladder(["random", "efficiency"], walls=4, seed=1)
    done = np.isfinite(partial.mean)
    assert np.array_equal(partial.mean[done], ref.mean[done])


def _logs(directory: Path, n: int) -> list[Path]:
    directory.mkdir()
    out = []
    for s in range(n):
        bots = [mj.bots.RandomBot(4 * s + i) for i in range(4)]
        rec = mj.Game(mj.botzone.rules(), bots, seed=s).play()
        out.append(Path(mj.botzone.write_log(rec, directory / f"{s:03d}.json")))
    return out


def _rows_one_by_one(paths):
    rows = [_convert.botzone_hands(str(p)) for p in paths]
    return {c: np.concatenate([r[c] for r in rows]) for c in rows[0]}


def test_map_files_converts_logs_into_row_shards_equal_to_one_by_one(tmp_path, capfd):
    logs = _logs(tmp_path / "logs", 30)
    out = tmp_path / "rows"
    shards = distributed.map_files(
        logs,
        distributed.botzone_hands,
        out=out,
        files_per_task=4,
        rows_per_shard=3,
        progress=True,
    )
    want = _rows_one_by_one(logs)
    got = shards.arrays()
    assert shards.complete and len(shards) == 30 and shards.skipped == []
    assert set(got) == set(want) and all(np.array_equal(got[c], want[c]) for c in want)
    assert shards.input_paths() == [str(p) for p in logs]
    assert "map_files: 30/30 inputs (100.0%)" in capfd.readouterr().err
    # numpy and json alone read it back.
    m = json.loads((out / "manifest.json").read_text())
    winners = [np.load(out / piece["file"])["winner"] for t in m["tasks"] for piece in t["shards"]]
    assert np.array_equal(np.concatenate(winners), want["winner"])
    # A damaged shard file: resume runs its task again, and only its task.
    victim = m["tasks"][3]["shards"][0]["file"]
    for p in out.glob("rows-*.npz"):
        os.utime(p, (1_000_000_000, 1_000_000_000))
    with open(out / victim, "r+b") as f:
        f.write(b"junk")
    with pytest.raises(mj.ResultFileError, match="SHA-256"):
        distributed.RowShards.load(out)
    again = distributed.map_files(
        logs, distributed.botzone_hands, out=out, files_per_task=4, rows_per_shard=3, resume=True
    )
    assert all(np.array_equal(again.arrays()[c], want[c]) for c in want)
    redone = {p.name for p in out.glob("rows-*.npz") if p.stat().st_mtime != 1_000_000_000}
    assert redone == {p["file"] for p in m["tasks"][3]["shards"]}
    with pytest.raises(mj.ResultFileError, match="over other input files"):
        distributed.map_files(logs[:-1], distributed.botzone_hands, out=out, resume=True)


def test_map_files_reports_a_failing_input_and_resumes(tmp_path):
    logs = _logs(tmp_path / "logs", 12)
    good = logs[7].read_bytes()
    logs[7].write_text('{"initdata": {}, "log": []}')
    out = tmp_path / "rows"
    with pytest.raises(
        mj.ShardError, match=r"inputs 4 to 7 .* failed.*input 7 .*07.json.*LogError"
    ) as info:
        distributed.map_files(logs, distributed.botzone_hands, out=out, files_per_task=4)
    assert info.value.unit == "inputs" and info.value.first == 4
    assert not info.value.partial.complete
    logs[7].write_bytes(good)
    done = distributed.map_files(
        logs, distributed.botzone_hands, out=out, files_per_task=4, resume=True
    )
    want = _rows_one_by_one(logs)
    assert done.complete and all(np.array_equal(done.arrays()[c], want[c]) for c in want)
    # With skip_errors the input is listed with its error, and its rows left out.
    logs[7].write_text("not json")
    skipping = distributed.map_files(
        logs, distributed.botzone_hands, out=tmp_path / "skip", files_per_task=4, skip_errors=True
    )
    assert [(i, Path(p).name) for i, p, _ in skipping.skipped] == [(7, "007.json")]
    assert "LogError" in skipping.skipped[0][2] and len(skipping) == 11


def test_map_files_turns_logs_of_every_format_into_training_samples(tmp_path):
    """majiang.data on the cluster: the samples of every file, in the order of the files,
    each row tagged with its file."""
    from majiang import data

    real = Path(__file__).parent / "data" / "real"
    files = [real / "ijcai.txt", real / "botzone.json", *sorted((real / "human").glob("*.txt"))]
    rows = distributed.map_files(
        files,
        distributed.GameSamples(),
        out=tmp_path / "samples",
        files_per_task=2,
        rows_per_shard=150,
        input_column="input",
    )
    got = rows.arrays()
    parts = [data.samples(data.read(f)).arrays() for f in files]
    for c in parts[0]:
        assert np.array_equal(got[c], np.concatenate([p[c] for p in parts])), c
    sizes = [len(p["action"]) for p in parts]
    assert np.array_equal(got["input"], np.repeat(np.arange(len(files)), sizes))
    assert rows.converter == (
        "majiang.data.samples(features='v1', augment=False) + input column 'input'"
    )
    with pytest.raises(mj.ResultFileError, match="with converter"):
        distributed.map_files(
            files,
            distributed.GameSamples(),
            out=tmp_path / "samples",
            files_per_task=2,
            resume=True,
        )
