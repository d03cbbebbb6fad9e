"""majiang.distributed without a cluster: the sharding, the shard directory a cluster run
writes (workers' shards listed out of order, pending shards, damaged shards played
again) and its compatibility with the one-machine run, the progress line, the row
shards of many files. What needs Ray is in test_distributed_ray.py."""

import hashlib
import io
import json
import os
import pickle
from pathlib import Path

import numpy as np
import pytest

import majiang as mj
from majiang import sim
from majiang.distributed import _convert, _runner
from majiang.distributed._simulate import _play_shard, _write_hands, shard_ranges
from majiang.sim import SimResult

ARGS = {"rules": "gb", "bots": ["random"] * 4, "seed": 9, "threads": 1}
META = {
    "rules": "gb",
    "rule_options": dict(mj.RuleSet("gb").options()),
    "bots": ["random"] * 4,
    "seed": 9,
}


def test_shard_ranges_cover_the_hands_in_order():
    assert shard_ranges(10, 3) == [(0, 4), (4, 4), (8, 2)]
    assert shard_ranges(2, 8) == [(0, 1), (1, 1)]
    assert shard_ranges(0, 4) == []
    with pytest.raises(ValueError, match="shards"):
        shard_ranges(10, 0)


def test_shards_with_a_shipped_rule_set_equal_the_single_machine_run():
    """What a Ray task receives: the pickled arguments of each shard, a RuleSet among them."""
    rules = mj.RuleSet("huainan", cap=32, reserved_tiles=14)
    bots = ["efficiency", "random", "efficiency", "random"]
    parts = []
    for start, count in shard_ranges(40, 3):
        args = pickle.loads(pickle.dumps((start, count, rules, bots, 5, 1)))
        assert args[2] == rules
        parts.append(_play_shard(*args))
    sharded = SimResult._from_arrays(parts, rules="huainan", bots=bots, seed=5)
    assert sharded.equals(mj.simulate(40, rules=rules, bots=bots, seed=5))
    assert not sharded.equals(mj.simulate(40, rules="huainan", bots=bots, seed=5))


def test_shard_files_are_the_same_bytes_whoever_writes_them(tmp_path):
    """The .npz of a shard has fixed time stamps: a task and its retry, or a cluster run
    and a one-machine run, write the same bytes; numpy reads them as ever."""
    arrays = sim._core.simulate_hands(300, **ARGS)
    a = sim._npz_bytes(arrays)
    assert a == sim._npz_bytes({k: v.copy() for k, v in arrays.items()})
    with np.load(io.BytesIO(a)) as z:
        assert all(np.array_equal(z[k], arrays[k]) for k in arrays)
    one = mj.simulate(900, bots="random", seed=9, out=tmp_path / "one", shard_hands=300)
    (tmp_path / "two").mkdir()
    for first in (600, 0, 300):  # workers, in the order they finish
        _write_hands(str(tmp_path / "two"), first, 300, "gb", ["random"] * 4, 9, 1)
    for f in ("hands-000000000000.npz", "hands-000000000300.npz", "hands-000000000600.npz"):
        assert (tmp_path / "one" / f).read_bytes() == (tmp_path / "two" / f).read_bytes()
    assert len(one) == 900


def _worker(directory: Path, first: int, count: int) -> dict:
    """What a worker of a cluster run does: plays a range and writes its shard."""
    return _write_hands(str(directory), first, count, "gb", ["random"] * 4, 9, 1)["entry"]


def test_shards_listed_out_of_order_wait_as_pending(tmp_path):
    run = tmp_path / "run"
    w = sim._ShardWriter(run, META, resume=False)
    try:
        assert w.gaps(1000) == [(0, 1000)]
        w.adopt(_worker(run, 600, 300), 600, 300)
        w.adopt(_worker(run, 300, 300), 300, 300)
        w.flush()
        m = json.loads((run / "manifest.json").read_text())
        assert m["hands"] == 0 and [s["start"] for s in m["pending"]] == [300, 600]
        assert w.gaps(1000) == [(0, 300), (900, 1000)]
        # A cluster run stopped here reads as the hands from 0 on: none.
        assert len(mj.SimResult.load(run)) == 0
        w.adopt(_worker(run, 0, 300), 0, 300)
        w.flush()
        m = json.loads((run / "manifest.json").read_text())
        assert m["hands"] == 900 and "pending" not in m
        assert w.gaps(1000) == [(900, 1000)]
        # The driver checks what a worker says: the range asked for, and the file's digest.
        entry = _worker(run, 900, 100)
        with pytest.raises(mj.ResultFileError, match="not the shard of hands 900 to 949"):
            w.adopt(entry, 900, 50)
        bad = dict(entry, sha256="0" * 64)
        with pytest.raises(mj.ResultFileError, match="SHA-256 here is not the one the worker"):
            w.adopt(bad, 900, 100)
        os.unlink(run / entry["file"])
        with pytest.raises(mj.ResultFileError, match="file system every node shares"):
            w.adopt(entry, 900, 100)
        with pytest.raises(mj.ResultFileError, match="overlaps"):
            w.add(dict(entry, start=800, file="hands-000000000800.npz"))
    finally:
        w.close()
    assert mj.SimResult.load(run).equals(mj.simulate(900, bots="random", seed=9))


def test_one_machine_resumes_a_cluster_run_with_pending_shards(tmp_path):
    """Either resumes the other: the one-machine run plays only the gaps, adopting the
    shards a cluster run left after them, and the directory equals a one-machine run's."""
    run = tmp_path / "run"
    w = sim._ShardWriter(run, META, resume=False)
    for first in (1000, 2500):
        w.adopt(_worker(run, first, 500), first, 500)
    w.flush()
    w.close()
    done = mj.simulate(3_400, bots="random", seed=9, out=run, resume=True, shard_hands=400)
    assert done.equals(mj.simulate(3_400, bots="random", seed=9))
    m = json.loads((run / "manifest.json").read_text())
    assert [(s["start"], s["hands"]) for s in m["shards"]] == [
        (0, 400),
        (400, 400),
        (800, 200),
        (1000, 500),
        (1500, 400),
        (1900, 400),
        (2300, 200),
        (2500, 500),
        (3000, 400),
    ]
    # Resumed to fewer hands than an earlier attempt planned: a pending shard past the
    # end is dropped, and the run holds exactly the hands asked for.
    other = tmp_path / "other"
    w = sim._ShardWriter(other, META, resume=False)
    w.adopt(_worker(other, 600, 300), 600, 300)
    w.flush()
    w.close()
    part = mj.simulate(700, bots="random", seed=9, out=other, resume=True, shard_hands=300)
    assert part.equals(mj.simulate(700, bots="random", seed=9))
    assert not (other / "hands-000000000600.npz").exists() or "pending" not in json.loads(
        (other / "manifest.json").read_text()
    )


def test_resume_plays_damaged_or_missing_shards_again(tmp_path):
    run = tmp_path / "run"
    mj.simulate(2_000, bots="random", seed=9, out=run, shard_hands=400)
    for p in run.glob("hands-*.npz"):
        os.utime(p, (1_000_000_000, 1_000_000_000))  # marks the files written so far
    with open(run / "hands-000000000400.npz", "r+b") as f:
        f.seek(100)
        f.write(b"\xff\xff\xff")
    os.unlink(run / "hands-000000001200.npz")
    with pytest.raises(mj.ResultFileError, match="SHA-256"):
        mj.SimResult.load(run)
    w = sim._ShardWriter(run, META, resume=True)
    try:
        assert [sh["start"] for sh, _ in w.repaired] == [400, 1200]
        assert "does not match" in w.repaired[0][1] and "missing" in w.repaired[1][1]
        assert w.hands == 400 and [sh["start"] for sh in w.pending] == [800, 1600]
        assert w.gaps(2_000) == [(400, 800), (1200, 1600)]
    finally:
        w.close()
    again = mj.simulate(2_000, bots="random", seed=9, out=run, shard_hands=400, resume=True)
    assert again.equals(mj.simulate(2_000, bots="random", seed=9))
    # Only the two shards were written again.
    rewritten = {p.name for p in run.glob("hands-*.npz") if p.stat().st_mtime != 1_000_000_000}
    assert rewritten == {"hands-000000000400.npz", "hands-000000001200.npz"}
    assert mj.SimResult.load(run).verify().ok


def test_a_manifest_with_malformed_pending_shards_is_refused(tmp_path):
    run = tmp_path / "run"
    w = sim._ShardWriter(run, META, resume=False)
    w.adopt(_worker(run, 500, 100), 500, 100)
    w.flush()
    w.close()
    m = json.loads((run / "manifest.json").read_text())

    def redigest(x):
        x["digest"] = "sha256:" + hashlib.sha256(sim._canonical(x, "digest")).hexdigest()
        return x

    for edit, words in [
        (lambda x: x.update(pending=[]), "left out if none"),
        (
            lambda x: x["pending"][0].update(start=0, file="hands-000000000000.npz"),
            "not after hand 0 and a gap",
        ),
        (lambda x: x["pending"][0].update(hands=0), "pending shard 0 is malformed"),
        (lambda x: x.update(pending="all"), "pending must be a list"),
    ]:
        bad = json.loads(json.dumps(m))
        edit(bad)
        (run / "manifest.json").write_text(json.dumps(redigest(bad)))
        with pytest.raises(mj.ResultFileError, match=words):
            mj.SimResult.load(run)


def test_a_worker_refuses_a_directory_it_cannot_see(tmp_path):
    with pytest.raises(mj.ResultFileError, match="every node sees at the same path"):
        _write_hands(str(tmp_path / "nowhere"), 0, 10, "gb", ["random"] * 4, 0, 1)


def test_the_progress_line_says_done_rate_and_time_left():
    out = io.StringIO()
    bar = _runner.Progress("simulate", "hands", 1_000_000, 200_000, stream=out)
    bar.start -= 10.0  # ten seconds into the session
    bar.update(400_000, 3, force=True)
    line = out.getvalue().strip()
    assert line.startswith("simulate: 400,000/1,000,000 hands (40.0%), ")
    assert "20,000 hands/s" in line  # this session's 200,000 hands in 10 s
    assert "ETA 30s" in line and "3 running" in line and "10s elapsed" in line
    bar.note("the shard of hands 0 to 99 failed on node-7: OSError: boom")
    assert out.getvalue().endswith(
        "simulate: the shard of hands 0 to 99 failed on node-7: OSError: boom\n"
    )
    quiet = io.StringIO()
    hidden = _runner.Progress("arena", "games", 10, 0, show=False, stream=quiet)
    hidden.update(5, 1, force=True)
    hidden.note("failure")
    assert quiet.getvalue() == "arena: failure\n"
    assert _runner.clock(3725) == "1h02m05s" and _runner.clock(65) == "1m05s"


def test_the_worker_error_of_a_failed_task_is_unwrapped():
    class Wrapped(Exception):
        def __init__(self, cause):
            super().__init__("ray said")
            self.cause = cause
            self.ip = "10.0.0.7"

    text, node, cause = _runner.describe(Wrapped(OSError(28, "No space left on device")))
    assert text == "OSError: [Errno 28] No space left on device" and node == "10.0.0.7"
    assert isinstance(cause, OSError)
    text, node, cause = _runner.describe(RuntimeError("The worker died unexpectedly\nmore"))
    assert (text, node, cause) == ("RuntimeError: The worker died unexpectedly", None, None)


def _logs(tmp_path: Path, n: int) -> list[Path]:
    paths = []
    for s in range(n):
        bots = [mj.bots.RandomBot(4 * s + i) for i in range(4)]
        rec = mj.Game(mj.botzone.rules(), bots, seed=s).play()
        paths.append(Path(mj.botzone.write_log(rec, tmp_path / f"log-{s:03d}.json")))
    return paths


def test_a_task_of_map_files_streams_rows_into_shard_files(tmp_path):
    logs = _logs(tmp_path, 7)
    out = tmp_path / "rows"
    out.mkdir()
    got = _convert._convert_files(
        str(out), 0, [str(p) for p in logs], _convert.botzone_hands, 3, False
    )
    assert [p["rows"] for p in got["shards"]] == [3, 3, 1]
    assert (
        got["rows"] == 7
        and got["skipped"] == []
        and got["columns"]["scores"]
        == {
            "dtype": "int32",
            "shape": [4],
        }
    )
    rows = [np.load(out / p["file"]) for p in got["shards"]]
    winners = np.concatenate([r["winner"] for r in rows])
    want = [_convert.botzone_hands(str(p))["winner"][0] for p in logs]
    assert winners.tolist() == want
    for p in got["shards"]:
        assert hashlib.sha256((out / p["file"]).read_bytes()).hexdigest() == p["sha256"]
    # A file the converter fails on names the input; with skip_errors it is listed.
    (tmp_path / "log-003.json").write_text('{"initdata": {}, "log": []}')
    with pytest.raises(mj.ShardError, match=r"input 3 \(.*log-003.json\): LogError"):
        _convert._convert_files(
            str(out), 0, [str(p) for p in logs], _convert.botzone_hands, 3, False
        )
    got = _convert._convert_files(
        str(out), 0, [str(p) for p in logs], _convert.botzone_hands, 3, True
    )
    assert got["rows"] == 6 and [s["input"] for s in got["skipped"]] == [3]
    assert "LogError" in got["skipped"][0]["error"]


@pytest.mark.parametrize(
    "batch, words",
    [
        ([1, 2], "must be a mapping"),
        ({}, "no columns"),
        ({"a b": np.zeros(2)}, "column name"),
        ({"x": np.array([object()])}, "object and structured"),
        ({"x": np.int8(3)}, "needs a row axis"),
        ({"x": np.zeros(2), "y": np.zeros(3)}, "3 rows, the batch's others 2"),
    ],
)
def test_a_converter_batch_is_checked(batch, words):
    with pytest.raises((mj.InvalidArgumentError, mj.InvalidTypeError), match=words):
        _convert._batch_spec(batch)


def test_converter_names():
    assert _convert.converter_name(_convert.botzone_hands) == (
        "majiang.distributed._convert:botzone_hands"
    )

    class Samples:
        converter_name = "samples v2 (gb)"

        def __call__(self, path):
            return {}

    assert _convert.converter_name(Samples()) == "samples v2 (gb)"


def names_and_sizes(path):
    """A converter with a text column (of any length) and a number per file; a file
    named ``empty-*`` has no rows, one named ``two-*`` two, in two batches."""
    name = Path(path).name
    if name.startswith("empty-"):
        return []
    row = {"name": np.array([name]), "size": np.array([os.path.getsize(path)], dtype=np.int64)}
    return [row, row] if name.startswith("two-") else row


def test_the_driver_lists_tasks_and_reads_rows_back_in_input_order(tmp_path):
    """map_files' driver side without Ray: tasks finishing out of order are listed, the
    directory reads back in input order, text columns of any length included."""
    inputs = tmp_path / "in"
    inputs.mkdir()
    names = ["a", "empty-b", "two-cc", "dddd", "e", "ffffff", "g"]
    paths = []
    for k, n in enumerate(names):
        (inputs / n).write_bytes(b"x" * k)
        paths.append(str(inputs / n))
    out = tmp_path / "rows"
    w = _convert._RowWriter(out, paths, _convert.converter_name(names_and_sizes), 3, False)
    try:
        assert w.missing() == [0, 3, 6]
        for first in (6, 0, 3):
            got = _convert._convert_files(
                str(out), first, paths[first : first + 3], names_and_sizes, 2, False
            )
            w.adopt(got, first, len(paths[first : first + 3]))
        w.flush()
        assert w.missing() == []
    finally:
        w.close()
    rows = _convert.RowShards.load(out)
    assert (
        rows.complete and len(rows) == 7 and rows.columns["name"] == {"dtype": "str", "shape": []}
    )
    got = rows.arrays()
    assert got["name"].tolist() == ["a", "two-cc", "two-cc", "dddd", "e", "ffffff", "g"]
    assert got["size"].tolist() == [0, 2, 2, 3, 4, 5, 6]
    assert rows.input_paths() == paths and rows.converter.endswith(":names_and_sizes")
    # Resuming with other inputs, another converter or another task size is refused.
    for args, words in [
        ((paths[:-1], _convert.converter_name(names_and_sizes), 3), "over other input files"),
        ((paths, "another", 3), "with converter .*, not 'another'"),
        ((paths, _convert.converter_name(names_and_sizes), 4), "with files_per_task 3, not 4"),
    ]:
        with pytest.raises(mj.ResultFileError, match=words):
            _convert._RowWriter(out, *args, True)
    # An edited manifest is caught, and so is a dtype no converter may give.
    m = json.loads((out / "manifest.json").read_text())
    m["rows"] = 8
    (out / "manifest.json").write_text(json.dumps(m))
    with pytest.raises(mj.ResultFileError, match="digest does not match"):
        _convert.RowShards.load(out)
    m["rows"] = 7
    m["columns"]["size"]["dtype"] = "object"
    m["digest"] = "sha256:" + hashlib.sha256(sim._canonical(m, "digest")).hexdigest()
    (out / "manifest.json").write_text(json.dumps(m))
    with pytest.raises(mj.ResultFileError, match="not a numeric or text dtype"):
        _convert.RowShards.load(out)


REAL = Path(__file__).parent / "data" / "real"


def test_game_samples_read_each_format_of_majiang_data():
    from majiang import data

    convert = _convert.GameSamples()
    assert convert.converter_name == "majiang.data.samples(features='v1', augment=False)"
    for path in [REAL / "ijcai.txt", REAL / "botzone.json", REAL / "human" / "2020-01-01-0.txt"]:
        got = list(convert(str(path)))
        want = data.samples(data.read(path)).arrays()
        # An IJCAI dump comes one match at a time, its game index counting the matches.
        assert len(got) == (4 if path.name == "ijcai.txt" else 1)
        for c in want:
            assert np.array_equal(np.concatenate([g[c] for g in got]), want[c]), (path, c)
    with pytest.raises(mj.InvalidArgumentError, match="features"):
        _convert.GameSamples(features="v3")
