"""SimResult files and shard directories that are damaged, incomplete or not ours: every
one raises ``ResultFileError`` naming the path and the problem, and saving never leaves a
partial file behind."""

from __future__ import annotations

import hashlib
import io
import json
import os
import zipfile
from pathlib import Path

import numpy as np
import pytest

import majiang as mj
from majiang import sim


@pytest.fixture(scope="module")
def result() -> mj.SimResult:
    return mj.simulate(300, rules=mj.RuleSet("gb", min_fan=6), bots="random", seed=5)


def _arrays(path: Path) -> dict[str, np.ndarray]:
    with np.load(path) as z:
        return {k: z[k] for k in z.files}


def _rewrite(path: Path, arrays: dict[str, np.ndarray]) -> None:
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    path.write_bytes(buf.getvalue())


def test_save_and_load_keep_the_options(tmp_path, result):
    path = tmp_path / "r.npz"
    result.save(path)
    back = mj.SimResult.load(path)
    assert back.equals(result)
    assert back.rule_options["min_fan"] == 6 and back.rule_set() == mj.RuleSet("gb", min_fan=6)
    assert (back.rules, back.bots, back.seed) == ("gb", ["random"] * 4, 5)
    # Written exactly as named, whatever the extension.
    other = tmp_path / "r.data"
    result.save(other)
    assert other.exists() and not (tmp_path / "r.data.npz").exists()
    assert mj.SimResult.load(other).equals(result)
    # Plain numpy reads it too.
    z = _arrays(path)
    assert np.array_equal(z["scores"], result.scores)
    assert json.loads(str(z["meta"]))["rule_options"]["min_fan"] == 6


def test_files_of_the_earlier_layout_still_load(tmp_path, result):
    path = tmp_path / "old.npz"
    np.savez_compressed(
        path,
        **result.arrays(),
        rules=np.array("gb"),
        bots=np.array(result.bots),
        seed=np.array(5, dtype=np.uint64),
    )
    back = mj.SimResult.load(path)
    assert back.equals(result) and back.seed == 5 and back.rule_options["min_fan"] == 8


def test_truncated_and_garbage_files(tmp_path, result):
    path = tmp_path / "r.npz"
    result.save(path)
    data = path.read_bytes()
    for name, content in [
        ("half.npz", data[: len(data) // 2]),
        ("empty.npz", b""),
        ("text.npz", b"hello, not a zip"),
    ]:
        p = tmp_path / name
        p.write_bytes(content)
        with pytest.raises(mj.ResultFileError, match=name):
            mj.SimResult.load(p)
    # A flipped byte inside a compressed member fails its CRC or inflate.
    flipped = bytearray(data)
    flipped[len(data) // 3] ^= 0xFF
    p = tmp_path / "flipped.npz"
    p.write_bytes(bytes(flipped))
    with pytest.raises(mj.ResultFileError, match="flipped"):
        mj.SimResult.load(p)
    with pytest.raises(FileNotFoundError):
        mj.SimResult.load(tmp_path / "absent.npz")


@pytest.mark.parametrize(
    "damage, words",
    [
        (lambda a: a.pop("fans"), "'fans' is missing"),
        (lambda a: a.update(winner=a["winner"].astype(np.int64)), "winner has dtype int64"),
        (lambda a: a.update(scores=a["scores"][:, :3]), "scores has shape"),
        (lambda a: a.update(turns=a["turns"][:-1]), "turns has shape"),
        (lambda a: a.update(meta=np.array("{not json")), "not valid JSON"),
        (lambda a: a.update(meta=np.array('{"format": "other"}')), "not a majiang"),
        (
            lambda a: a.update(meta=np.array('{"format": "majiang-simulation", "version": 7}')),
            "version 7",
        ),
        (
            lambda a: a.update(
                meta=np.array(
                    json.dumps(
                        {
                            "format": "majiang-simulation",
                            "version": 1,
                            "rules": "gb",
                            "rule_options": {},
                            "bots": ["random"],
                            "seed": 1,
                        }
                    )
                )
            ),
            "four names",
        ),
    ],
)
def test_wrong_contents(tmp_path, result, damage, words):
    path = tmp_path / "r.npz"
    result.save(path)
    arrays = _arrays(path)
    damage(arrays)
    _rewrite(path, arrays)
    with pytest.raises(mj.ResultFileError, match=words) as e:
        mj.SimResult.load(path)
    assert str(path) in str(e.value)


def test_save_checks_the_target_first(tmp_path, result):
    with pytest.raises(mj.ResultFileError, match="does not exist"):
        result.save(tmp_path / "missing" / "r.npz")
    with pytest.raises(mj.ResultFileError, match="is a directory"):
        result.save(tmp_path)


def test_a_failed_save_keeps_the_previous_file(tmp_path, result, monkeypatch):
    path = tmp_path / "r.npz"
    result.save(path)
    before = path.read_bytes()

    def broken(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(sim.os, "fsync", broken)
    with pytest.raises(OSError, match="No space"):
        mj.simulate(10, seed=1).save(path)
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.npz"]


def test_an_interrupted_save_keeps_the_previous_file(tmp_path, result, monkeypatch):
    path = tmp_path / "r.npz"
    result.save(path)
    before = path.read_bytes()
    real_replace = os.replace

    def interrupted(src: str, dst: str) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(sim.os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        mj.simulate(10, seed=1).save(path)
    monkeypatch.setattr(sim.os, "replace", real_replace)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.npz"]


@pytest.fixture
def shards(tmp_path) -> Path:
    out = tmp_path / "run"
    mj.simulate(700, bots="random", seed=2, out=out, shard_hands=300)
    return out


def _manifest(out: Path) -> dict:
    return json.loads((out / "manifest.json").read_text())


def _set_manifest(out: Path, m: dict, digest: bool = True) -> None:
    """Writes a manifest; with ``digest``, its own digest recomputed over the fields (as
    whoever edits it on purpose can), so that the checks behind the digest are reached."""
    if digest and "digest" in m:
        m["digest"] = "sha256:" + hashlib.sha256(sim._canonical(m, "digest")).hexdigest()
    (out / "manifest.json").write_text(json.dumps(m))


def test_shard_directory_damage(shards):
    out = shards
    first = out / _manifest(out)["shards"][0]["file"]
    good = first.read_bytes()
    # A changed shard fails its digest.
    first.write_bytes(good[:-1] + bytes([good[-1] ^ 1]))
    with pytest.raises(mj.ResultFileError, match="SHA-256"):
        mj.SimResult.load(out)
    # Found later when the digests are not checked at load.
    lazy = mj.SimResult.load(out, verify=False)
    with pytest.raises(mj.ResultFileError, match="SHA-256"):
        _ = lazy.winner
    first.write_bytes(good)
    assert mj.SimResult.load(out).equals(mj.simulate(700, bots="random", seed=2))
    first.unlink()
    with pytest.raises(mj.ResultFileError, match="missing"):
        mj.SimResult.load(out)


@pytest.mark.parametrize(
    "edit, words",
    [
        (lambda m: m.update(format="zip"), "not a majiang shard manifest"),
        (lambda m: m.update(version=3), "format version 3"),
        (lambda m: m.update(version=True), "format version True"),
        (lambda m: m.update(extra=1), "unknown fields extra"),
        (lambda m: m.update(columns={}), "not those of a simulation"),
        (lambda m: m.update(rules="riichi"), "the rules 'riichi'"),
        (lambda m: m["rule_options"].pop("flowers"), "missing flowers"),
        (lambda m: m.update(bots=["random", "random", "random", "genius"]), "unknown bot"),
        (lambda m: m["shards"][0].update(file="hands-000000000001.npz"), "malformed"),
        (lambda m: m["shards"][0].update(sha256="x" * 64), "malformed"),
        (lambda m: m["shards"][0].update(hands=True), "malformed"),
        (lambda m: m.update(hands=701), "the manifest says 701"),
        (
            lambda m: m["shards"][1].update(start=301, file="hands-000000000301.npz"),
            "expected 300",
        ),
        (lambda m: m["shards"][0].update(file="../escape.npz"), "malformed"),
        (lambda m: m["shards"][0].pop("sha256"), "malformed"),
        (lambda m: m.pop("seed"), "no 'seed'"),
        (lambda m: m.update(bots="random"), "four names"),
    ],
)
def test_bad_manifests(shards, edit, words):
    m = _manifest(shards)
    edit(m)
    _set_manifest(shards, m)
    with pytest.raises(mj.ResultFileError, match=words):
        mj.SimResult.load(shards)


def test_unreadable_manifest_and_empty_directory(shards, tmp_path):
    (shards / "manifest.json").write_text("{")
    with pytest.raises(mj.ResultFileError, match="not valid JSON"):
        mj.SimResult.load(shards)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(mj.ResultFileError, match="without manifest.json"):
        mj.SimResult.load(empty)


def test_a_shard_with_wrong_arrays(shards):
    m = _manifest(shards)
    sh = m["shards"][2]
    path = shards / sh["file"]
    arrays = _arrays(path)
    arrays["dealer"] = arrays["dealer"].astype(np.float32)
    _rewrite(path, arrays)
    sh["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    _set_manifest(shards, m)
    r = mj.SimResult.load(shards)
    assert len(r) == 700
    # Every array of a shard is checked whenever the shard is read.
    with pytest.raises(mj.ResultFileError, match="dealer has dtype float32"):
        _ = r.winner
    with pytest.raises(mj.ResultFileError, match="hands-000000000600.npz"):
        r.summary()


def test_a_zip_that_is_not_npz(tmp_path):
    path = tmp_path / "r.npz"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("winner.npy", b"not an array")
    with pytest.raises(mj.ResultFileError, match="r.npz"):
        mj.SimResult.load(path)
