"""Batch simulation and the duplicate arena (re-exported by :mod:`majiang`).

:func:`simulate` plays whole hands in Rust with the built-in policies, on every core, with
the GIL released, and returns a :class:`SimResult` of numpy arrays. :func:`arena` plays
bots against each other, by default in duplicate (every wall played four times with the
seats rotated), and returns an :class:`ArenaResult` with per-bot figures: built-in bots
in Rust, and any Python bot (an object with ``act(observation)``, such as
:class:`majiang.bots.BotzoneBot`) seated among them on the same walls.

Hand ``i`` of a run depends only on ``(seed, i)`` (its wall, its dealer ``i % 4``, its
prevalent wind ``(i // 4) % 4`` and its bots' random choices), so the same seed gives the
same arrays whatever the thread count, and a run split into shards
(:func:`majiang.distributed.simulate`) gives the same arrays as one call.

Long runs
---------
Ctrl-C stops :func:`simulate`, :func:`arena` and the batch oracle calls within a fraction
of a second with ``KeyboardInterrupt``; for :func:`simulate` and :func:`arena` the
exception's ``partial`` attribute holds the hands finished so far (a :class:`SimResult`
or :class:`ArenaResult`, hands ``0 .. len(partial)`` of the run).

A run kept in memory holds at most :data:`MAX_IN_MEMORY_HANDS` hands (about 41 bytes
each). ``simulate(n, out=PATH)`` instead streams the hands to the directory ``PATH`` in
shards of ``shard_hands`` hands, with memory that does not grow with ``n``, and
``resume=True`` continues a run from what ``PATH`` holds, playing only the hands it lacks
(a listed shard found damaged or missing is played again); the result is the same as one
uninterrupted run.

The shard directory is plain numpy and JSON, readable without majiang: ``manifest.json``
(format name and version, seed, rule set name and every option, bots, the arrays' dtypes
and shapes, and per shard its file, first hand, hand count and SHA-256) and one
``hands-<first hand>.npz`` per shard holding the seven arrays of those hands. Shards are
numbered by their first hand so that any range of a run can be read on its own and a run
can grow; every file is written under a temporary name and renamed once flushed to disk,
and the manifest is rewritten after each shard, so an interrupted run leaves only
complete, listed shards. A run whose shards finish out of order (a cluster run,
:func:`majiang.distributed.simulate`) lists those written after a gap as ``pending``
until the gap is filled; either kind of run resumes the other.
"""

from __future__ import annotations

import bisect
import contextlib
import errno
import functools
import hashlib
import io
import json
import math
import os
import random
import re
import signal
import socket
import stat
import sys
import threading
import time
import zipfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np

from . import _core, signing
from ._core import RuleSet
from ._files import atomic_write, probe_dir
from ._untrusted import load_json, printable
from .errors import (
    ArenaBotError,
    BotError,
    InvalidArgumentError,
    InvalidTypeError,
    ResultFileError,
)
from .rules import unit

try:
    import fcntl
except ImportError:  # not on Windows: the lock is then held within this process only
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "MAX_IN_MEMORY_HANDS",
    "MAX_THREADS",
    "ArenaBotError",
    "ArenaResult",
    "ResultFileError",
    "RunCheck",
    "SimResult",
    "arena",
    "simulate",
]

#: Most hands (or arena hands) a run keeps in memory; pass ``out=`` to stream more.
MAX_IN_MEMORY_HANDS: int = _core.MAX_IN_MEMORY
#: Most worker threads a run may use.
MAX_THREADS: int = _core.MAX_THREADS
#: Hands per shard of a streamed run (the default of ``shard_hands``).
SHARD_HANDS = 100_000
#: The most hands per shard (a shard is held in memory until written: about 41 MB).
MAX_SHARD_HANDS: int = _core.MAX_SINK_HANDS

_COLUMNS = ("winner", "discarder", "fan_total", "turns", "dealer", "scores", "fans")
_ARENA_COLUMNS = ("wall", "seats", "winner", "discarder", "fan_total", "scores")
#: dtype and row shape of each array of a simulation.
_LAYOUT: dict[str, tuple[np.dtype, tuple[int, ...]]] = {
    "winner": (np.dtype(np.int8), ()),
    "discarder": (np.dtype(np.int8), ()),
    "fan_total": (np.dtype(np.int32), ()),
    "turns": (np.dtype(np.uint16), ()),
    "dealer": (np.dtype(np.int8), ()),
    "scores": (np.dtype(np.int32), (4,)),
    "fans": (np.dtype(np.uint8), (16,)),
}
#: The ``columns`` of a manifest: each array's dtype and row shape.
_COLUMN_SPEC = {c: {"dtype": d.name, "shape": list(t)} for c, (d, t) in _LAYOUT.items()}
#: The largest manifest read (a run of a million shards lists them in some 100 MB).
_MAX_MANIFEST = 1 << 28
_FILE_FORMAT = "majiang-simulation"
_SHARDS_FORMAT = "majiang-simulation-shards"
_VERSION = 1
#: The version of the shard manifests written: version 2 carries its own digest (and an
#: optional signature); version 1 manifests are read too.
_SHARDS_VERSION = 2
_MANIFEST = "manifest.json"
#: The lock file a writer of a shard directory holds for its run.
_LOCK = ".lock"
#: What a manifest's signature is made over (see :mod:`majiang.signing`).
_SIGNED_AS = "majiang-simulation-shards"
_MANIFEST_KEYS = {
    "format",
    "version",
    "rules",
    "rule_options",
    "bots",
    "seed",
    "columns",
    "hands",
    "shards",
    "pending",
    "digest",
    "signature",
}


def _rules_name(rules: str | RuleSet) -> str:
    return rules.name if isinstance(rules, RuleSet) else str(rules)


def _rules_spec(rules: str | RuleSet) -> tuple[str, dict[str, Any]]:
    """The rule set's preset name and every option (raises RuleError if unknown)."""
    rs = rules if isinstance(rules, RuleSet) else RuleSet(rules)
    return rs.name, dict(rs.options())


def _bot_list(bots: str | Sequence[str]) -> list[str]:
    if isinstance(bots, str):
        names = [b.strip() for b in bots.split(",")]
    else:
        names = [str(b) for b in bots]
    if len(names) == 1:
        names = names * 4
    if len(names) != 4:
        raise InvalidArgumentError(f"bots needs one name or four (one per seat), got {len(names)}")
    known = _core.policy_names()
    for n in names:
        if n not in known:
            raise InvalidArgumentError(f"unknown bot {n!r} (built-in bots: {', '.join(known)})")
    return names


def _check_int(name: str, n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise InvalidTypeError(f"{name} must be an int, got {type(n).__name__}")
    return int(n)


def _check_count(name: str, n: Any) -> int:
    n = _check_int(name, n)
    if n < 0:
        raise InvalidArgumentError(f"{name} must be >= 0, got {n}")
    return n


def _check_seed(seed: Any) -> int:
    seed = _check_int("seed", seed)
    if not 0 <= seed < 2**64:
        raise InvalidArgumentError(f"seed must be 0 <= seed < 2**64, got {seed}")
    return seed


def _check_threads(threads: Any) -> int | None:
    if threads is None:
        return None
    threads = _check_int("threads", threads)
    if not 1 <= threads <= MAX_THREADS:
        raise InvalidArgumentError(
            f"threads must be between 1 and {MAX_THREADS} (or None), got {threads}"
        )
    return threads


def _check_in_memory(name: str, n: int) -> None:
    if n > MAX_IN_MEMORY_HANDS:
        raise InvalidArgumentError(
            f"{name}={n:,} is more than the {MAX_IN_MEMORY_HANDS:,} hands a run keeps in "
            "memory (MAX_IN_MEMORY_HANDS); pass out=PATH to stream them to disk"
        )


class _Progress:
    """A one-line text progress bar on stderr."""

    def __init__(
        self, total: int, label: str, stream: IO[str] | None = None, offset: int = 0
    ) -> None:
        self.total = max(total, 1)
        self.label = label
        self.stream = stream or sys.stderr
        self.offset = offset
        self.start = time.perf_counter()

    def update(self, done: int) -> None:
        done += self.offset
        frac = min(done / self.total, 1.0)
        width = 30
        filled = int(frac * width)
        elapsed = time.perf_counter() - self.start
        rate = (done - self.offset) / elapsed if elapsed > 0 else 0.0
        bar = "#" * filled + "-" * (width - filled)
        self.stream.write(
            f"\r{self.label} [{bar}] {done:,}/{self.total:,} {frac:6.1%} {rate:,.0f}/s"
        )
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\n")
        self.stream.flush()


# ---- files ------------------------------------------------------------------------------


def _atomic_write(path: Path, data: bytes) -> None:
    """Writes ``data`` to ``path`` through a temporary file created safely beside it
    (``O_EXCL``, no symbolic link followed, an unpredictable name), flushed to disk, then
    renamed over ``path``, so ``path`` is always either the old or the new file, even if
    the process dies in between (see :mod:`majiang._files`)."""
    atomic_write(path, data)


@contextlib.contextmanager
def _ctrl_c_deferred() -> Iterator[None]:
    """Holds Ctrl-C back while a shard and the manifest that lists it are written, so that
    it lands after the pair, never between the two: a SIGINT arriving meanwhile is noted
    and handed to the previous handler afterwards (``KeyboardInterrupt`` by default)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    noted: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: noted.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if noted:
            if callable(previous):
                previous(signal.SIGINT, None)
            elif previous == signal.SIG_DFL:
                raise KeyboardInterrupt


def _check_writable_dir(directory: Path, what: Path) -> None:
    """Raises ResultFileError unless files can be created in ``directory`` (a temporary
    file is created there as every write does, then removed)."""
    if not directory.is_dir():
        raise ResultFileError(f"{what}: the directory {directory} does not exist")
    try:
        probe_dir(directory)
    except OSError as e:
        raise ResultFileError(f"{what}: cannot write in {directory}: {e.strerror}") from None


def _check_file_target(path: Path) -> None:
    """Checks, before any work, that :meth:`SimResult.save` can write ``path``."""
    if path.is_dir():
        raise ResultFileError(f"{path} is a directory, not a file")
    _check_writable_dir(path.parent if str(path.parent) else Path("."), path)


#: The time stamp of every member of the ``.npz`` files written (the earliest a zip file
#: can hold), so that the same arrays give the same bytes whoever writes them and when.
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def _npz_bytes(arrays: dict[str, np.ndarray]) -> bytes:
    """The arrays as a compressed ``.npz`` (what ``np.savez_compressed`` writes: one
    deflated ``<name>.npy`` member per array), with fixed member time stamps: the same
    arrays give the same bytes, so two writers of one shard (a task and its retry, a run
    and the resume that plays a damaged shard again) write the same file and digest."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for name, array in arrays.items():
            info = zipfile.ZipInfo(f"{name}.npy", date_time=_ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            with z.open(info, "w", force_zip64=True) as member:
                np.lib.format.write_array(member, np.asanyarray(array), allow_pickle=False)
    return buf.getvalue()


def _read_npz(source: Path, data: bytes | None = None) -> dict[str, np.ndarray]:
    """Every array of an ``.npz`` (from ``data`` when given), or ResultFileError."""
    try:
        handle = io.BytesIO(data) if data is not None else source
        with np.load(handle, allow_pickle=False) as z:
            return {k: z[k] for k in z.files}
    except FileNotFoundError:
        raise
    except Exception as e:  # zip, zlib, format and OS errors all mean a bad file
        raise ResultFileError(f"{source}: not a readable .npz file ({e})") from None


def _columns(arrays: dict[str, np.ndarray], names: Sequence[str]) -> dict[str, Any]:
    """The arrays named ``names`` (the keyword arguments of a result)."""
    return {c: arrays[c] for c in names}


def _check_columns(source: Path, arrays: dict[str, np.ndarray], n: int | None = None) -> int:
    """Checks the seven simulation arrays (present, dtype, shape, one length); returns
    the number of hands."""
    for c in _COLUMNS:
        if c not in arrays:
            raise ResultFileError(f"{source}: the array {c!r} is missing")
    w = arrays["winner"]
    rows = n if n is not None else (int(w.shape[0]) if w.ndim == 1 else -1)
    for c, (dtype, tail) in _LAYOUT.items():
        a = arrays[c]
        if a.dtype != dtype:
            raise ResultFileError(f"{source}: {c} has dtype {a.dtype}, expected {dtype}")
        if a.shape != (rows, *tail):
            want = ", ".join(str(x) for x in (rows if rows >= 0 else "n", *tail))
            raise ResultFileError(f"{source}: {c} has shape {a.shape}, expected ({want})")
    return rows


def _check_shard_hands(shard_hands: Any) -> int:
    """``shard_hands`` checked: an int from 1 to :data:`MAX_SHARD_HANDS`."""
    shard_hands = _check_count("shard_hands", shard_hands)
    if not 1 <= shard_hands <= MAX_SHARD_HANDS:
        raise InvalidArgumentError(
            f"shard_hands must be between 1 and {MAX_SHARD_HANDS:,} (a shard is held in "
            f"memory until it is written), got {shard_hands:,}"
        )
    return shard_hands


def _read_manifest_json(path: Path) -> Any:
    """The parsed ``manifest.json`` of the shard directory `path` (at most
    ``_MAX_MANIFEST`` bytes read), before any check of its content; a missing, unreadable,
    oversized or malformed file raises :class:`ResultFileError` naming it."""
    mpath = path / _MANIFEST
    try:
        with open(mpath, "rb") as f:
            data = f.read(_MAX_MANIFEST + 1)
    except FileNotFoundError:
        raise ResultFileError(f"{path}: a directory without {_MANIFEST}") from None
    except OSError as e:
        raise ResultFileError(f"{mpath}: cannot read ({e.strerror or e})") from None
    if len(data) > _MAX_MANIFEST:
        raise ResultFileError(f"{mpath}: larger than {_MAX_MANIFEST:,} bytes")
    try:
        return load_json(data)
    except (ValueError, UnicodeDecodeError) as e:
        raise ResultFileError(f"{mpath}: not valid JSON ({e})") from None


def _check_format(
    source: object, obj: object, fmt: str, what: str, versions: tuple[int, ...] = (_VERSION,)
) -> None:
    """Raises ResultFileError unless ``obj`` (read from ``source``) is a JSON object naming
    ``fmt`` and a format version this majiang reads; ``what`` names the file kind."""
    if not isinstance(obj, dict) or obj.get("format") != fmt:
        raise ResultFileError(f"{source}: not a majiang {what}")
    v = obj.get("version")
    if isinstance(v, bool) or v not in versions:
        raise ResultFileError(
            f"{source}: format version {v!r}, this majiang reads " + ", ".join(map(str, versions))
        )


def _check_meta(source: Path, meta: Any) -> tuple[str, dict[str, Any], list[str], int]:
    """Reads rules, options, bots and seed from a file's or manifest's metadata."""
    if not isinstance(meta, dict):
        raise ResultFileError(f"{source}: the metadata is not a JSON object")
    try:
        rules = meta["rules"]
        options = meta["rule_options"]
        bots = meta["bots"]
        seed = meta["seed"]
    except KeyError as e:
        raise ResultFileError(f"{source}: the metadata has no {e.args[0]!r}") from None
    if not isinstance(rules, str) or not isinstance(options, dict):
        raise ResultFileError(f"{source}: rules must be a name and rule_options an object")
    if not isinstance(bots, list) or len(bots) != 4 or not all(isinstance(b, str) for b in bots):
        raise ResultFileError(f"{source}: bots must be a list of four names")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise ResultFileError(f"{source}: seed must be an int 0 <= seed < 2**64")
    try:
        full = dict(RuleSet(rules, **options).options())
    except (ValueError, TypeError) as e:
        raise ResultFileError(f"{source}: the rules {rules!r} with these options: {e}") from None
    if full != options:
        missing = sorted(set(full) - set(options))
        raise ResultFileError(
            f"{source}: rule_options must list every option of {rules!r}"
            + (f" (missing {', '.join(missing)})" if missing else "")
        )
    known = _core.policy_names()
    unknown = next((b for b in bots if b not in known), None)
    if unknown is not None:
        raise ResultFileError(f"{source}: unknown bot {unknown[:40]!r}")
    return rules, options, bots, seed


def _canonical(obj: dict[str, Any], *leave_out: str) -> bytes:
    """The bytes a manifest's digest and signature are made over: its fields but
    ``leave_out``, as sorted, compact JSON."""
    body = {k: v for k, v in obj.items() if k not in leave_out}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(
        "utf-8"
    )


def _shard_name(first: int) -> str:
    return f"hands-{first:012d}.npz"


def _write_why(e: OSError) -> str:
    """Why a write failed, in words (a full disk named as such)."""
    if e.errno in (errno.ENOSPC, errno.EDQUOT):
        return "the disk is full"
    if e.errno == errno.EFBIG:
        return "the file size limit is reached"
    return e.strerror or str(e)


def _shard_file(first: int, arrays: dict[str, np.ndarray]) -> tuple[bytes, dict[str, Any]]:
    """The bytes of the shard holding hands ``first ..`` (the seven arrays, checked) and
    its manifest entry: ``file``, ``start``, ``hands``, ``sha256``."""
    n = _check_columns(Path(_shard_name(first)), arrays)
    data = _npz_bytes({c: arrays[c] for c in _COLUMNS})
    entry = {
        "file": _shard_name(first),
        "start": first,
        "hands": n,
        "sha256": hashlib.sha256(data).hexdigest(),
    }
    return data, entry


def _write_shard(directory: Path, first: int, arrays: dict[str, np.ndarray]) -> dict[str, Any]:
    """Writes the shard of hands ``first ..`` into ``directory`` (a temporary file beside
    it, flushed and renamed, see :mod:`majiang._files`) and returns its manifest entry;
    the manifest is not touched. What a worker of :mod:`majiang.distributed` does;
    :meth:`_ShardWriter.write` does the same and lists the shard. Raises ResultFileError
    naming the file when it cannot be written."""
    data, entry = _shard_file(first, arrays)
    try:
        _atomic_write(directory / entry["file"], data)
    except OSError as e:
        raise ResultFileError(
            f"{directory / entry['file']}: cannot write ({_write_why(e)})"
        ) from None
    return entry


_SHA256_HEX = frozenset("0123456789abcdef")


def _sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _good_entry(sh: Any) -> bool:
    """True for a well-formed manifest entry of a shard."""
    return (
        isinstance(sh, dict)
        and set(sh) == {"file", "start", "hands", "sha256"}
        and type(sh["start"]) is int
        and type(sh["hands"]) is int
        and 0 <= sh["start"] < 2**64
        and 0 < sh["hands"] <= MAX_IN_MEMORY_HANDS
        and sh["file"] == _shard_name(sh["start"])
        and isinstance(sh["sha256"], str)
        and len(sh["sha256"]) == 64
        and set(sh["sha256"]) <= _SHA256_HEX
    )


class _ShardStore:
    """A shard directory: its manifest, checked, and its shards read on demand (each
    file's digest is checked whenever it is read).

    ``digest``: the manifest carried a digest of its own fields and it matched (a
    version 2 manifest); ``signature``: ``"none"``, ``"not checked"`` (signed, read
    without a key) or ``"checked"`` (signed, and the key given verified it)."""

    def __init__(self, path: Path, manifest: dict[str, Any]) -> None:
        self.path = path
        self.manifest = manifest
        self.rules, self.rule_options, self.bots, self.seed = _check_meta(
            path / _MANIFEST, manifest
        )
        self.shards: list[dict[str, Any]] = manifest["shards"]
        self.hands: int = manifest["hands"]
        #: Shards written after a gap (by a run played out of order, such as a
        #: distributed one): not part of the result until the gap before them is filled.
        self.pending: list[dict[str, Any]] = manifest.get("pending", [])
        self.digest = "digest" in manifest
        self.signature = "not checked" if "signature" in manifest else "none"

    @classmethod
    def open(cls, path: Path, verify: bool = True, key: Any = None) -> _ShardStore:
        mpath = path / _MANIFEST
        m = _read_manifest_json(path)
        _check_format(mpath, m, _SHARDS_FORMAT, "shard manifest", (1, _SHARDS_VERSION))
        if m["version"] >= 2:
            extra = sorted(set(m) - _MANIFEST_KEYS)
            if extra:
                raise ResultFileError(f"{mpath}: unknown fields {', '.join(extra)[:200]}")
            digest = m.get("digest")
            want = "sha256:" + hashlib.sha256(_canonical(m, "digest", "signature")).hexdigest()
            if not isinstance(digest, str) or digest != want:
                raise ResultFileError(
                    f"{mpath}: the manifest's digest does not match its fields "
                    "(seed, rules, options, bots, shards): it was edited or damaged"
                )
        signature = m.get("signature")
        if key is not None:
            if signature is None:
                raise ResultFileError(
                    f"{mpath}: not signed, so the key cannot vouch for it (written without "
                    "a key, or its signature was removed)"
                )
            if not signing.verify(key, _SIGNED_AS, _canonical(m, "signature"), signature):
                raise ResultFileError(
                    f"{mpath}: the signature does not match: the run was changed after it "
                    "was signed, or signed with another key"
                )
        elif signature is not None and not (
            isinstance(signature, str) and signature.startswith(signing.PREFIX)
        ):
            raise ResultFileError(f"{mpath}: a malformed signature")
        if m.get("columns", _COLUMN_SPEC) != _COLUMN_SPEC:
            raise ResultFileError(f"{mpath}: the columns are not those of a simulation")
        shards = m.get("shards")
        hands = m.get("hands")
        pending = m.get("pending", [])
        if not isinstance(shards, list) or type(hands) is not int:
            raise ResultFileError(f"{mpath}: shards must be a list and hands an int")
        at = 0
        for k, sh in enumerate(shards):
            if not _good_entry(sh):
                raise ResultFileError(f"{mpath}: shard {k} is malformed: {str(sh)[:200]}")
            if sh["start"] != at:
                raise ResultFileError(
                    f"{mpath}: shard {k} starts at hand {sh['start']}, expected {at}"
                )
            at += sh["hands"]
        if at != hands or hands >= 2**64:
            raise ResultFileError(f"{mpath}: the shards hold {at} hands, the manifest says {hands}")
        if not isinstance(pending, list) or ("pending" in m and not pending):
            raise ResultFileError(f"{mpath}: pending must be a list of shards (left out if none)")
        for k, sh in enumerate(pending):
            if not _good_entry(sh):
                raise ResultFileError(f"{mpath}: pending shard {k} is malformed: {str(sh)[:200]}")
            if sh["start"] < at or (k == 0 and sh["start"] == at):
                raise ResultFileError(
                    f"{mpath}: pending shard {k} starts at hand {sh['start']}, which is not "
                    + (f"after hand {at} and a gap" if k == 0 else f"at or after hand {at}")
                )
            at = sh["start"] + sh["hands"]
        if at >= 2**64:
            raise ResultFileError(f"{mpath}: the pending shards end past hand 2**64")
        store = cls(path, m)
        if key is not None:
            store.signature = "checked"
        if verify:
            for sh in shards:
                store._check_digest(sh, None)
        return store

    def _check_digest(self, sh: dict[str, Any], data: bytes | None) -> None:
        f = self.path / sh["file"]
        try:
            digest = hashlib.sha256(data).hexdigest() if data is not None else _sha256_file(f)
        except FileNotFoundError:
            raise ResultFileError(f"{f}: the shard is missing") from None
        except OSError as e:
            raise ResultFileError(f"{f}: cannot read ({e.strerror})") from None
        if digest != sh["sha256"]:
            raise ResultFileError(f"{f}: the shard's SHA-256 does not match the manifest")

    def read(self, sh: dict[str, Any]) -> dict[str, np.ndarray]:
        """The arrays of one shard, checked."""
        f = self.path / sh["file"]
        try:
            data = f.read_bytes()
        except FileNotFoundError:
            raise ResultFileError(f"{f}: the shard is missing") from None
        self._check_digest(sh, data)
        arrays = _read_npz(f, data)
        _check_columns(f, arrays, sh["hands"])
        return arrays

    def column(self, name: str) -> np.ndarray:
        dtype, tail = _LAYOUT[name]
        parts = [self.read(sh)[name] for sh in self.shards]
        return np.concatenate(parts) if parts else np.zeros((0, *tail), dtype=dtype)


#: Directories this process is writing, by (device, inode): a second writer in the same
#: process is refused even where the file lock is per process (NFS).
_WRITING: set[tuple[int, int]] = set()
#: Leftovers of an interrupted writer: temporary files of the manifest, of a shard or of
#: a probe (this version's names and older ones').
_STALE = re.compile(r"\.(?:manifest\.json|hands-\d{12}\.npz)\..*\.tmp|\.majiang-probe-.*")
_SHARD_FILE = re.compile(r"hands-(\d{12})\.npz")


class _RunLock:
    """The exclusive lock a writer holds on a shard directory for its run: ``flock`` on
    ``DIR/.lock`` (opened without following a symbolic link), which also names the
    holder for the message a second writer gets."""

    def __init__(self, path: Path) -> None:
        self.path = path
        st = os.stat(path)
        self.key = (st.st_dev, st.st_ino)
        if self.key in _WRITING:
            raise ResultFileError(
                f"{path} is being written by another simulate(out=...) call of this "
                "process; two writers would damage it"
            )
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        try:
            fd = os.open(path / _LOCK, flags, 0o644)
        except OSError as e:
            raise ResultFileError(
                f"{path}: cannot open its lock file {_LOCK} ({e.strerror or e})"
            ) from None
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise ResultFileError(f"{path / _LOCK} is not a regular file")
            if fcntl is not None:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError as e:
                    if e.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                        raise ResultFileError(
                            f"{path}: cannot lock {_LOCK} ({e.strerror or e})"
                        ) from None
                    holder = os.pread(fd, 200, 0).decode("utf-8", "replace").strip()
                    raise ResultFileError(
                        f"{path} is being written by another process"
                        + (f" ({printable(holder, 100)})" if holder else "")
                        + ": two writers would damage it; wait for that run to end (or stop "
                        "it), then resume"
                    ) from None
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"pid {os.getpid()} on {socket.gethostname()}\n".encode(), 0)
        except BaseException:
            os.close(fd)
            raise
        self.fd: int | None = fd
        _WRITING.add(self.key)

    def release(self) -> None:
        """Releases the lock (closing the file releases it)."""
        if self.fd is not None:
            _WRITING.discard(self.key)
            os.close(self.fd)
            self.fd = None


class _ShardWriter:
    """Writes a run into a shard directory and keeps its manifest. Holds the directory's
    lock from construction to :meth:`close`.

    One machine plays the hands in order and hands each shard to :meth:`write` (the
    ``sink`` of ``_core.simulate_hands``). A distributed run's workers write shards
    themselves (:func:`_write_shard`), in any order, and the driver lists each with
    :meth:`adopt`. Either way the manifest lists ``shards``, the shards from hand 0 on
    without a gap (the result), and ``pending``, shards written after a gap, which join
    ``shards`` when the gap before them is filled; :meth:`gaps` says what is left to play.

    On resume every listed shard is checked against its SHA-256: a damaged or missing
    one is dropped (``repaired`` lists them) and is played again like any gap."""

    def __init__(self, path: Path, meta: dict[str, Any], resume: bool, key: Any = None) -> None:
        self.path = path
        self.meta = meta
        self.key = key
        self.shards: list[dict[str, Any]] = []
        self.pending: list[dict[str, Any]] = []
        self.hands = 0
        #: Leftover files of an interrupted writer removed when the run was resumed.
        self.cleaned: list[str] = []
        #: Listed shards found damaged or missing on resume (each ``(entry, why)``):
        #: unlisted, to be played again.
        self.repaired: list[tuple[dict[str, Any], str]] = []
        #: The manifest on disk lags behind what is listed (see :meth:`add`).
        self.dirty = False
        if path.exists() and not path.is_dir():
            raise ResultFileError(f"{path} is a file; out= takes a directory for the shards")
        if not path.is_dir():
            _check_writable_dir(path.parent if str(path.parent) else Path("."), path)
            try:
                path.mkdir()
            except FileExistsError:
                pass  # made meanwhile by another writer: the lock decides
            except OSError as e:
                raise ResultFileError(f"{path}: cannot create the directory ({e})") from None
        self.lock = _RunLock(path)
        try:
            self._open(resume)
        except BaseException:
            self.lock.release()
            raise

    def _open(self, resume: bool) -> None:
        path = self.path
        if (path / _MANIFEST).exists():
            if not resume:
                raise ResultFileError(
                    f"{path} already holds a run; pass resume=True (--resume) to continue "
                    "it, or choose another directory"
                )
            store = _ShardStore.open(path, verify=False, key=self.key)
            if self.key is None and store.signature != "none":
                raise ResultFileError(
                    f"{path} holds a signed run: pass its key (key=, --key-file) to continue "
                    "it, so that the shards added are signed too"
                )
            self._check_same_run(store)
            self._clean(store)
            kept = []
            for sh in [*store.shards, *store.pending]:
                try:
                    store._check_digest(sh, None)
                except ResultFileError as e:
                    self.repaired.append((sh, str(e)))
                    with contextlib.suppress(OSError):
                        os.unlink(path / sh["file"])
                else:
                    kept.append(sh)
            self._list(kept)
        elif any(p.name != _LOCK and not _STALE.fullmatch(p.name) for p in path.iterdir()):
            raise ResultFileError(
                f"{path} is not empty and holds no {_MANIFEST}; choose an empty or new directory"
            )
        else:
            self._clean(None)
        _check_writable_dir(path, path)
        try:
            self._write_manifest()
        except OSError as e:
            raise self._failure(_MANIFEST, e) from e

    def _list(self, entries: list[dict[str, Any]]) -> None:
        """Lists ``entries`` (non-overlapping shards, in any order): those from hand 0
        on without a gap as ``shards``, the others as ``pending``."""
        self.shards, self.pending, self.hands = [], [], 0
        for sh in sorted(entries, key=lambda e: e["start"]):
            if sh["start"] == self.hands and not self.pending:
                self.shards.append(sh)
                self.hands += sh["hands"]
            else:
                self.pending.append(sh)

    def _clean(self, store: _ShardStore | None) -> None:
        """Removes what an interrupted writer left: temporary files, and shard files the
        manifest does not list (written just before the writer died). Nothing is
        followed: a symbolic link is removed, not its target."""
        listed = {sh["file"] for sh in [*store.shards, *store.pending]} if store else set()
        for entry in os.scandir(self.path):
            name = entry.name
            junk = _STALE.fullmatch(name) or (_SHARD_FILE.fullmatch(name) and name not in listed)
            if junk and not entry.is_dir(follow_symlinks=False):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(entry.path)
                self.cleaned.append(name)

    def clean_temporary(self) -> None:
        """Removes temporary files left in the directory (by a worker killed while it
        wrote); only while no writer of this run is at work."""
        for entry in os.scandir(self.path):
            if _STALE.fullmatch(entry.name) and not entry.is_dir(follow_symlinks=False):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(entry.path)
                self.cleaned.append(entry.name)

    def close(self) -> None:
        """Ends the run: releases the directory's lock."""
        self.lock.release()

    def _failure(self, name: str, e: OSError) -> ResultFileError:
        """The error of a write that failed: the path, why, and that resuming continues."""
        return ResultFileError(
            f"{self.path / name}: cannot write ({_write_why(e)}); the {self.hands:,} hands "
            f"written before are intact and listed in {_MANIFEST}: make room and run again "
            "with resume=True (majiang simulate --resume) to continue the run"
        )

    def _check_same_run(self, store: _ShardStore) -> None:
        stored = {
            "seed": store.seed,
            "rules": store.rules,
            "rule_options": store.rule_options,
            "bots": store.bots,
        }
        for key, value in stored.items():
            if value != self.meta[key]:
                raise ResultFileError(
                    f"{self.path} holds a run with {key} {value!r}, not {self.meta[key]!r}; "
                    "resume only continues the same run"
                )

    def _write_manifest(self) -> None:
        m: dict[str, Any] = {
            "format": _SHARDS_FORMAT,
            "version": _SHARDS_VERSION,
            **self.meta,
            "columns": _COLUMN_SPEC,
            "hands": self.hands,
            "shards": self.shards,
        }
        if self.pending:
            m["pending"] = self.pending
        m["digest"] = "sha256:" + hashlib.sha256(_canonical(m)).hexdigest()
        if self.key is not None:
            m["signature"] = signing.sign(self.key, _SIGNED_AS, _canonical(m))
        data = json.dumps(m, indent=1, ensure_ascii=False).encode("utf-8")
        _atomic_write(self.path / _MANIFEST, data)
        self.dirty = False

    def flush(self) -> None:
        """Writes the manifest if it lags behind what is listed."""
        if self.dirty:
            try:
                self._write_manifest()
            except OSError as e:
                raise self._failure(_MANIFEST, e) from e

    def gaps(self, n: int) -> list[tuple[int, int]]:
        """The ranges ``(first, end)`` of hands below ``n`` that no listed shard holds."""
        out = []
        at = self.hands
        for sh in self.pending:
            if sh["start"] >= n:
                break
            if sh["start"] > at:
                out.append((at, sh["start"]))
            at = sh["start"] + sh["hands"]
        if at < n:
            out.append((at, n))
        return out

    def limit(self, n: int) -> None:
        """Unlists (and removes) pending shards that end past hand ``n``: a run resumed
        to fewer hands than an earlier attempt planned plays hands ``0 .. n`` exactly."""
        beyond = [sh for sh in self.pending if sh["start"] + sh["hands"] > n]
        if not beyond:
            return
        self.pending = [sh for sh in self.pending if sh["start"] + sh["hands"] <= n]
        try:
            self._write_manifest()
        except OSError as e:
            raise self._failure(_MANIFEST, e) from e
        for sh in beyond:
            with contextlib.suppress(OSError):
                os.unlink(self.path / sh["file"])

    def add(self, entry: dict[str, Any], write: bool = True) -> None:
        """Lists the shard ``entry`` (written and checked): in ``shards`` when it starts
        where they end (with the pending shards it joins), else in ``pending``. The
        manifest is written at once, or with ``write=False`` at the next :meth:`flush`."""
        first, end = entry["start"], entry["start"] + entry["hands"]
        if first < self.hands or any(
            first < sh["start"] + sh["hands"] and sh["start"] < end for sh in self.pending
        ):
            raise ResultFileError(
                f"{self.path}: the shard of hands {first:,} to {end - 1:,} overlaps a listed one"
            )
        bisect.insort(self.pending, entry, key=lambda e: e["start"])
        while self.pending and self.pending[0]["start"] == self.hands:
            sh = self.pending.pop(0)
            self.shards.append(sh)
            self.hands += sh["hands"]
        self.dirty = True
        if write:
            self.flush()

    def adopt(self, entry: Any, first: int, count: int) -> dict[str, Any]:
        """Checks the shard a worker says it wrote for hands ``first .. first + count``
        (the entry names that range and the file on disk has its SHA-256, read here) and
        lists it (the manifest is written at the next :meth:`flush`)."""
        want: dict[str, Any] = {"file": _shard_name(first), "start": first, "hands": count}
        if not _good_entry(entry) or any(entry[k] != v for k, v in want.items()):
            raise ResultFileError(
                f"{self.path / want['file']}: the worker's answer is not the shard of hands "
                f"{first:,} to {first + count - 1:,}: {str(entry)[:200]}"
            )
        f = self.path / entry["file"]
        try:
            digest = _sha256_file(f)
        except OSError as e:
            raise ResultFileError(
                f"{f}: the worker wrote it, but it cannot be read here ({e.strerror or e}): is "
                f"{self.path} on a file system every node shares, at the same path?"
            ) from None
        if digest != entry["sha256"]:
            raise ResultFileError(
                f"{f}: its SHA-256 here is not the one the worker computed: the file was "
                "changed after it was written, or the nodes do not share one file system"
            )
        self.add(entry, write=False)
        return entry

    def write(self, first: int, arrays: dict[str, np.ndarray]) -> None:
        """Writes hands ``first ..`` as the next shard and lists it in the manifest."""
        if first != self.hands:
            raise ResultFileError(f"{self.path}: shard at hand {first}, expected {self.hands}")
        data, entry = _shard_file(first, arrays)
        name = entry["file"]
        with _ctrl_c_deferred():
            try:
                _atomic_write(self.path / name, data)
            except OSError as e:
                raise self._failure(name, e) from e
            shards, pending, hands = list(self.shards), list(self.pending), self.hands
            try:
                self.add(entry, write=False)
                self._write_manifest()
            except BaseException as e:
                self.shards, self.pending, self.hands = shards, pending, hands
                if isinstance(e, OSError):
                    raise self._failure(_MANIFEST, e) from e
                raise


def _column(name: str) -> property:
    def get(self: SimResult) -> np.ndarray:
        a = self._arrays.get(name)
        if a is None:
            assert self._store is not None
            a = self._store.column(name)
            self._arrays[name] = a
        return a

    return property(get, doc=f"The ``{name}`` array (read from the shards on first use).")


class SimResult:
    """The outcome of :func:`simulate`: numpy arrays of length ``n_hands``.

    ``winner`` (int8, -1 for an exhaustive draw), ``discarder`` (int8, the seat that dealt
    in; -1 for a self-draw or a draw), ``fan_total`` (int32, flowers included, 0 without a
    winner), ``turns`` (uint16, discards in the hand), ``dealer`` (int8), ``scores``
    (``(n_hands, 4)`` int32, each seat's change, summing to 0 per hand) and ``fans``
    (``(n_hands, 16)`` uint8, the ids of the winner's fans, 0 = none; names in
    :meth:`fan_names`).

    ``rules`` is the rule set's preset name and ``rule_options`` every option of it
    (:meth:`rule_set` rebuilds the :class:`~majiang.RuleSet`), ``bots`` the four policies
    and ``seed`` the run's seed. A result read from a shard directory reads each array
    from disk on first use (one array of the whole run in memory at a time);
    :meth:`summary` and :meth:`iter_chunks` go shard by shard. Results pickle and copy.
    """

    winner = _column("winner")
    discarder = _column("discarder")
    fan_total = _column("fan_total")
    turns = _column("turns")
    dealer = _column("dealer")
    scores = _column("scores")
    fans = _column("fans")

    def __init__(
        self,
        winner: np.ndarray,
        discarder: np.ndarray,
        fan_total: np.ndarray,
        turns: np.ndarray,
        dealer: np.ndarray,
        scores: np.ndarray,
        fans: np.ndarray,
        rules: str | RuleSet = "gb",
        bots: Sequence[str] | None = None,
        seed: int = 0,
        rule_options: dict[str, Any] | None = None,
    ) -> None:
        self._arrays: dict[str, np.ndarray] = {
            "winner": np.asarray(winner),
            "discarder": np.asarray(discarder),
            "fan_total": np.asarray(fan_total),
            "turns": np.asarray(turns),
            "dealer": np.asarray(dealer),
            "scores": np.asarray(scores),
            "fans": np.asarray(fans),
        }
        self._store: _ShardStore | None = None
        name, options = _rules_spec(rules)
        self.rules: str = name
        self.rule_options: dict[str, Any] = dict(rule_options) if rule_options else options
        self.bots: list[str] = list(bots) if bots is not None else ["efficiency"] * 4
        self.seed: int = int(seed)

    @classmethod
    def _of_store(cls, store: _ShardStore) -> SimResult:
        r = cls.__new__(cls)
        r._arrays = {}
        r._store = store
        r.rules = store.rules
        r.rule_options = dict(store.rule_options)
        r.bots = list(store.bots)
        r.seed = store.seed
        return r

    def __len__(self) -> int:
        if self._store is not None:
            return self._store.hands
        return int(self._arrays["winner"].shape[0])

    def __repr__(self) -> str:
        where = f", from {self._store.path}" if self._store is not None else ""
        return (
            f"SimResult({len(self):,} hands, rules {self.rules!r}, bots {self.bots}, "
            f"seed {self.seed}{where})"
        )

    def rule_set(self) -> RuleSet:
        """The run's rule set, with its options."""
        return RuleSet(self.rules, **self.rule_options)

    def _meta(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "rule_options": self.rule_options,
            "bots": list(self.bots),
            "seed": self.seed,
        }

    @classmethod
    def _from_arrays(cls, parts: list[dict[str, np.ndarray]], **meta: Any) -> SimResult:
        cols: dict[str, Any] = {}
        for c in _COLUMNS:
            arrays = [p[c] for p in parts]
            cols[c] = np.concatenate(arrays) if len(arrays) != 1 else arrays[0]
        return cls(**cols, **meta)

    @staticmethod
    def fan_names() -> dict[int, tuple[str, str]]:
        """Fan id to ``(english, chinese)`` name."""
        return dict(_core.fan_names())

    def arrays(self) -> dict[str, np.ndarray]:
        """The arrays by name."""
        return {c: getattr(self, c) for c in _COLUMNS}

    def iter_chunks(self) -> Iterator[dict[str, np.ndarray]]:
        """The arrays a part at a time (one shard at a time for a shard directory, else
        everything at once), in hand order."""
        if self._store is not None:
            for sh in self._store.shards:
                yield self._store.read(sh)
        else:
            yield self.arrays()

    def equals(self, other: SimResult) -> bool:
        """True if every array is identical."""
        return all(np.array_equal(getattr(self, c), getattr(other, c)) for c in _COLUMNS)

    def verify(
        self,
        sample: int | None = None,
        *,
        random_seed: int | None = None,
        threads: int | None = None,
    ) -> RunCheck:
        """Re-plays the run's hands from its seed, rules, options and bots and compares
        every array with what the result holds: all the hands, or with ``sample`` a random
        sample of that many distinct hands (drawn from the operating system's random
        source, so nobody can foresee which; from ``random_seed`` when given, to repeat a
        check). A shard directory is read one shard at a time. Returns a
        :class:`RunCheck`: which hands were checked, which differ, and for a shard
        directory what its manifest's digest and signature showed.

        This proves what digests cannot: that the hands are the ones the seed gives,
        whoever wrote the files."""
        n = len(self)
        if sample is not None:
            sample = _check_count("sample", sample)
            if sample == 0:
                raise InvalidArgumentError("sample must be >= 1 (or None for every hand)")
        if random_seed is not None:
            random_seed = _check_int("random_seed", random_seed)
        threads = _check_threads(threads)
        rules = self.rule_set()
        names = _bot_list(self.bots)
        chunks: list[tuple[int, int, Callable[[], dict[str, np.ndarray]]]]
        if self._store is not None:
            store = self._store
            chunks = [
                (sh["start"], sh["hands"], functools.partial(store.read, sh)) for sh in store.shards
            ]
        else:
            chunks = [(0, n, self.arrays)] if n else []
        picked: list[int] | None = None
        if sample is not None and sample < n:
            rng = random.Random(random_seed) if random_seed is not None else random.SystemRandom()
            picked = sorted(rng.sample(range(n), sample))
        bad: list[int] = []
        n_bad = checked = 0
        for first, count, read in chunks:
            if picked is None:
                rows = None
            else:
                lo = bisect.bisect_left(picked, first)
                hi = bisect.bisect_left(picked, first + count)
                rows = picked[lo:hi]
                if not rows:
                    continue
            have = read()
            if rows is None:
                got = _core.simulate_hands(
                    count, rules=rules, bots=names, seed=self.seed, start=first, threads=threads
                )
                differ = np.zeros(count, dtype=bool)
                for c in _COLUMNS:
                    a, b = have[c], got[c]
                    differ |= (a != b).reshape(count, -1).any(axis=1)
                wrong = (np.flatnonzero(differ) + first).tolist()
                checked += count
            else:
                wrong = []
                for i in rows:
                    got = _core.simulate_hands(
                        1, rules=rules, bots=names, seed=self.seed, start=i, threads=1
                    )
                    if any(not np.array_equal(have[c][i - first], got[c][0]) for c in _COLUMNS):
                        wrong.append(i)
                checked += len(rows)
            n_bad += len(wrong)
            bad.extend(wrong[: max(0, _MAX_LISTED - len(bad))])
        held = self._store
        return RunCheck(
            hands=n,
            checked=checked,
            sampled=picked is not None,
            differing=n_bad,
            first_differing=bad,
            seed=self.seed,
            manifest_digest=None if held is None else held.digest,
            signature=None if held is None else held.signature,
        )

    def save(self, path: str | os.PathLike[str]) -> None:
        """Writes the arrays and the run's rules (with every option), bots and seed to one
        ``.npz`` file at exactly ``path``. The file is written under a temporary name in the
        same directory and renamed when complete, so ``path`` never holds a partial file;
        the directory is checked before anything is written. Read it back with
        :meth:`load`, or without majiang: ``np.load(path)`` gives the arrays and
        ``json.loads(str(np.load(path)["meta"]))`` the rest."""
        p = Path(path)
        _check_file_target(p)
        meta = {"format": _FILE_FORMAT, "version": _VERSION, **self._meta()}
        data = _npz_bytes({**self.arrays(), "meta": np.array(json.dumps(meta))})
        _atomic_write(p, data)

    @classmethod
    def load(
        cls, path: str | os.PathLike[str], *, verify: bool = True, key: bytes | str | None = None
    ) -> SimResult:
        """Reads a file written by :meth:`save` or a shard directory written by
        ``simulate(..., out=path)``. A directory's manifest is checked at once (its own
        digest over the seed, rules, options, bots and shard list, in a manifest of version
        2), and with ``verify`` every shard's SHA-256 (one read of each file); its arrays
        are read when first used. With ``key``, the directory must be signed with that key
        (see :mod:`majiang.signing`). Raises :class:`ResultFileError` naming the file and
        the problem."""
        p = Path(path)
        if p.is_dir():
            return cls._of_store(_ShardStore.open(p, verify=verify, key=key))
        if key is not None:
            raise InvalidArgumentError(
                "key= checks the signature of a shard directory; a .npz file is not signed"
            )
        if not p.exists():
            raise FileNotFoundError(f"no such simulation file: {p}")
        z = _read_npz(p)
        if "meta" in z:
            try:
                meta = load_json(str(z["meta"]))
            except ValueError as e:
                raise ResultFileError(f"{p}: the metadata is not valid JSON ({e})") from None
            _check_format(p, meta, _FILE_FORMAT, "simulation file")
            rules, options, bots, seed = _check_meta(p, meta)
        else:
            # Files of earlier versions: the preset's name, bots and seed as arrays.
            for key in ("rules", "bots", "seed"):
                if key not in z:
                    raise ResultFileError(f"{p}: the array {key!r} is missing")
            try:
                rules = str(z["rules"])
                bots = [str(b) for b in z["bots"]]
                seed = int(z["seed"])
                options = dict(RuleSet(rules).options())
            except Exception as e:
                raise ResultFileError(f"{p}: bad rules, bots or seed ({e})") from None
        _check_columns(p, z)
        return cls(
            **{c: z[c] for c in _COLUMNS},
            rules=rules,
            bots=bots,
            seed=seed,
            rule_options=options,
        )

    def summary(self, top: int = 10) -> dict[str, Any]:
        """Figures over all hands: ``hands``, ``win_rate``, ``self_draw_share`` (of wins),
        ``exhaustive_draw_rate``, ``mean_fan`` (of wins), ``fan_histogram`` (fan total ->
        wins), ``top_fans`` (``(name, name_zh, wins with it, share of wins)``, most frequent
        first), ``mean_turns``, ``seat_win_rate`` and ``seat_mean_score`` per seat."""
        # Every figure is a sum over hands, gathered a chunk (shard) at a time.
        n = wins = self_drawn = 0
        fan_sum = turns_sum = 0
        hist: dict[int, int] = {}
        tally = np.zeros(256, dtype=np.int64)
        seat_wins = np.zeros(4, dtype=np.int64)
        score_sum = np.zeros(4, dtype=np.int64)
        for ch in self.iter_chunks():
            winner = ch["winner"]
            won = winner >= 0
            n += len(winner)
            wins += int(won.sum())
            self_drawn += int((won & (ch["discarder"] < 0)).sum())
            totals = ch["fan_total"][won]
            fan_sum += int(totals.astype(np.int64).sum())
            for v, c in zip(*np.unique(totals, return_counts=True), strict=True):
                hist[int(v)] = hist.get(int(v), 0) + int(c)
            ids = ch["fans"][won].ravel()
            tally += np.bincount(ids[ids > 0].astype(np.int64), minlength=256)[:256]
            turns_sum += int(ch["turns"].astype(np.int64).sum())
            seat_wins += np.bincount(winner[won].astype(np.int64), minlength=4)[:4]
            score_sum += ch["scores"].astype(np.int64).sum(axis=0)
        names = self.fan_names()
        order = np.argsort(-tally, kind="stable")
        top_fans = []
        for i in order[:top]:
            if tally[i] == 0:
                break
            en, zh = names.get(int(i), (f"fan {int(i)}", ""))
            top_fans.append((en, zh, int(tally[i]), float(tally[i] / max(wins, 1))))
        return {
            "hands": n,
            "rules": self.rules,
            "rule_options": dict(self.rule_options),
            "bots": list(self.bots),
            "seed": self.seed,
            "wins": wins,
            "win_rate": wins / n if n else 0.0,
            "self_draw_share": self_drawn / wins if wins else 0.0,
            "exhaustive_draw_rate": (n - wins) / n if n else 0.0,
            "mean_fan": fan_sum / wins if wins else 0.0,
            "fan_histogram": dict(sorted(hist.items())),
            "top_fans": top_fans,
            "mean_turns": turns_sum / n if n else 0.0,
            "seat_win_rate": [int(w) / n if n else 0.0 for w in seat_wins],
            "seat_mean_score": [int(x) / n for x in score_sum] if n else [0.0] * 4,
        }

    def format_summary(self, top: int = 10) -> str:
        """The summary as text (what ``majiang simulate`` prints)."""
        s = self.summary(top=top)
        # Points-priced hands (huainan) are valued in 倍 (form value times multipliers).
        huainan = unit(s["rules"]) == "points"
        walls = ", private walls" if s["rule_options"].get("private_walls") else ""
        mean = (
            f"mean value       {s['mean_fan']:.2f} (of wins, 倍 after multipliers)"
            if huainan
            else f"mean fan         {s['mean_fan']:.2f} (of wins, flowers included)"
        )
        lines = [
            f"hands            {s['hands']:,}  (rules {s['rules']}{walls}, bots "
            f"{','.join(s['bots'])}, seed {s['seed']})",
            f"win rate         {s['win_rate']:.2%}  ({s['wins']:,} wins)",
            f"self-draw share  {s['self_draw_share']:.2%} of wins",
            f"exhaustive draws {s['exhaustive_draw_rate']:.2%}",
            mean,
            f"mean hand length {s['mean_turns']:.1f} discards",
            "win rate by seat " + "  ".join(f"{x:.2%}" for x in s["seat_win_rate"]),
            "mean score/seat  " + "  ".join(f"{x:+.2f}" for x in s["seat_mean_score"]),
            "value histogram (value: wins)" if huainan else "fan histogram (total: wins)",
        ]
        hist = s["fan_histogram"]
        if hist:
            peak = max(hist.values())
            for total, count in sorted(hist.items()):
                bar = "#" * max(1, round(40 * count / peak))
                lines.append(f"  {total:>4} {count:>10,} {bar}")
        if huainan:
            return "\n".join(lines)
        lines.append("most frequent fans (share of wins)")
        for en, zh, count, share in s["top_fans"]:
            lines.append(f"  {en:<28} {zh:<6} {count:>10,}  {share:6.2%}")
        return "\n".join(lines)


def _run_in_memory(
    label: str,
    n: int,
    progress: bool,
    run: Callable[[Callable[[int], None] | None], dict[str, np.ndarray]],
    wrap: Callable[[dict[str, np.ndarray]], Any],
) -> Any:
    """Runs ``run(report)`` (a Rust run held in memory; ``report`` is the progress bar's
    update, or None) and wraps its arrays. On Ctrl-C the arrays of the finished part,
    wrapped the same way, become the ``KeyboardInterrupt``'s ``partial``."""
    bar = _Progress(n, label) if progress else None
    try:
        d = run(bar.update if bar else None)
    except KeyboardInterrupt as e:
        part = getattr(e, "partial", None)
        if isinstance(part, dict):
            e.partial = wrap(part)  # type: ignore[attr-defined]
        raise
    finally:
        if bar:
            bar.close()
    return wrap(d)


def simulate(
    n_hands: int,
    *,
    rules: str | RuleSet = "gb",
    bots: str | Sequence[str] = "efficiency",
    seed: int = 0,
    threads: int | None = None,
    progress: bool = False,
    out: str | os.PathLike[str] | None = None,
    resume: bool = False,
    shard_hands: int = SHARD_HANDS,
    key: bytes | str | None = None,
) -> SimResult:
    """Plays ``n_hands`` whole hands in Rust with built-in policies and returns the arrays.

    ``rules``: ``"gb"``, ``"classic"``, ``"huainan"`` or a :class:`~majiang.RuleSet` (in
    huainan ``fan_total`` holds the winner's value in 倍). ``bots``: one built-in policy name
    for all seats (``"random"``, ``"efficiency"``, ``"strong"``, ``"strong_lite"``,
    ``"strong_search"``, ``"expert"``), or four (a list, or comma-separated text). ``seed``:
    ``0 <= seed < 2**64``. ``threads``: worker threads, 1 to :data:`MAX_THREADS` (all
    cores when None). ``progress``: a progress bar on stderr. The GIL is released while
    hands are played. Same seed and arguments, same arrays, whatever ``threads``.

    Without ``out``, at most :data:`MAX_IN_MEMORY_HANDS` hands. With ``out=PATH`` the hands
    are written to the directory ``PATH`` (created if missing; an existing one must be
    empty or hold this run) in shards of ``shard_hands`` hands as they finish, memory does
    not grow with ``n_hands``, and the returned result reads them from disk (see the
    module documentation for the layout). ``resume=True`` continues the run ``PATH``
    holds (same seed, rules, options and bots, else :class:`ResultFileError`) up to
    ``n_hands`` hands, playing only the hands it lacks: after the last shard, in the gaps
    a cluster run left, and those of a listed shard found damaged or missing (every
    listed shard's SHA-256 is checked first); the arrays equal those of one uninterrupted
    run. ``shard_hands`` is
    1 to :data:`MAX_SHARD_HANDS`.

    The directory is locked for the run: a second writer (another process, or another
    call in this one) gets :class:`ResultFileError` at once. Resuming removes what an
    interrupted writer left (temporary files, a shard the manifest does not list). A write
    that fails (a full disk) raises :class:`ResultFileError` naming the file, with the
    shards before it intact, so that ``resume=True`` continues. ``key``: sign the
    manifest with this key (see :mod:`majiang.signing`); a signed run is resumed with the
    same key only.

    Ctrl-C raises ``KeyboardInterrupt`` within a fraction of a second; its ``partial``
    attribute is a :class:`SimResult` of the hands finished (with ``out``, the shards
    written, which ``resume=True`` continues).
    """
    n = _check_count("n_hands", n_hands)
    seed = _check_seed(seed)
    names = _bot_list(bots)
    threads = _check_threads(threads)
    shard_hands = _check_shard_hands(shard_hands)
    if key is not None:
        signing.key_bytes(key)
        if out is None:
            raise InvalidArgumentError("key= signs a shard directory: pass out=PATH")
    rule_name, options = _rules_spec(rules)
    meta: dict[str, Any] = {
        "rules": rule_name,
        "rule_options": options,
        "bots": names,
        "seed": seed,
    }
    if out is None:
        if resume:
            raise InvalidArgumentError("resume=True continues a run on disk: pass out=PATH")
        _check_in_memory("n_hands", n)
        return _run_in_memory(
            "simulate",
            n,
            progress,
            lambda report: _core.simulate_hands(
                n, rules=rules, bots=names, seed=seed, threads=threads, progress=report
            ),
            lambda d: SimResult(**_columns(d, _COLUMNS), **meta),
        )
    path = Path(out)
    writer = _ShardWriter(path, meta, resume, key)
    bar: _Progress | None = None
    try:
        if writer.hands > n:
            raise ResultFileError(
                f"{path} already holds {writer.hands:,} hands, more than n_hands={n:,}"
            )
        writer.limit(n)
        gaps = writer.gaps(n)
        played = n - sum(end - first for first, end in gaps)
        bar = _Progress(n, "simulate", offset=played) if progress else None
        # The hands the run lacks, in order (one range, unless a distributed run or a
        # damaged shard left shards after a gap): each shard is listed as it is written.
        session = 0
        for first, end in gaps:
            report = None
            if bar is not None:
                report = functools.partial(lambda b, base, k: b.update(base + k), bar, session)
            _core.simulate_hands(
                end - first,
                rules=rules,
                bots=names,
                seed=seed,
                start=first,
                threads=threads,
                sink=writer.write,
                sink_hands=shard_hands,
                progress=report,
            )
            session += end - first
    except KeyboardInterrupt as e:
        e.partial = SimResult._of_store(  # type: ignore[attr-defined]
            _ShardStore.open(path, verify=False, key=key)
        )
        raise
    finally:
        writer.close()
        if bar:
            bar.close()
    return SimResult._of_store(_ShardStore.open(path, verify=False, key=key))


#: The most differing hands a :class:`RunCheck` lists.
_MAX_LISTED = 100


@dataclass
class RunCheck:
    """What :meth:`SimResult.verify` found.

    ``hands``: hands in the run; ``checked``: hands re-played from the seed (all of them,
    or a random ``sampled`` subset); ``differing``: how many of those differ in some array,
    ``first_differing`` the first of them (at most 100 listed). For a shard directory,
    ``manifest_digest`` says whether its manifest carried a digest of its own fields
    (version 2) and ``signature`` whether it was signed (``"none"``, ``"not checked"``,
    ``"checked"``); both are None for a result held in memory or read from a file."""

    hands: int
    checked: int
    sampled: bool
    differing: int
    first_differing: list[int]
    seed: int
    manifest_digest: bool | None = None
    signature: str | None = None

    @property
    def ok(self) -> bool:
        """True when every hand checked is the hand the seed gives."""
        return self.differing == 0

    def miss_chance(self, fraction: float) -> float:
        """The chance that a check of this size misses a change to ``fraction`` of the
        hands (0 when every hand was checked)."""
        if not self.sampled:
            return 0.0
        return (1.0 - fraction) ** self.checked

    def describe(self) -> str:
        """The finding in words (what ``majiang simulate --verify`` prints)."""
        if self.sampled:
            what = (
                f"a random sample of {self.checked:,} of the {self.hands:,} hands "
                "(drawn when the check ran)"
            )
        else:
            what = f"all {self.checked:,} hands"
        lines = [f"re-played {what} from seed {self.seed}"]
        if self.ok:
            lines[0] += ": every array identical"
            if self.sampled:
                lines.append(
                    f"a change to 1% of the hands would have gone unseen with probability "
                    f"{self.miss_chance(0.01):.2%}, to 0.1% with {self.miss_chance(0.001):.2%}"
                )
        else:
            listed = ", ".join(map(str, self.first_differing[:10]))
            more = ", ..." if self.differing > 10 else ""
            differ = "hand differs" if self.differing == 1 else "hands differ"
            lines[0] += (
                f": {self.differing:,} {differ} from what the seed gives (hand {listed}{more})"
            )
        if self.manifest_digest is not None:
            lines.append(
                "manifest: "
                + ("its own digest matched" if self.manifest_digest else "no digest (version 1)")
                + "; signature: "
                + {
                    "none": "none",
                    "not checked": "present, not checked (no key given)",
                    "checked": "checked with the key given",
                }.get(str(self.signature), str(self.signature))
            )
        return "\n".join(lines)


def _mean_ci(x: np.ndarray) -> tuple[float, tuple[float, float]]:
    n = len(x)
    if n == 0:
        return 0.0, (0.0, 0.0)
    m = float(x.mean())
    if n < 2:
        return m, (m, m)
    half = 1.959964 * float(x.std(ddof=1)) / math.sqrt(n)
    return m, (m - half, m + half)


@dataclass
class ArenaResult:
    """The games of :func:`arena`, indexed by bot (the position in ``bots``).

    Arrays of length ``games``: ``wall`` (the wall each game was played on), ``seats``
    (``(games, 4)``, each bot's seat), ``winner`` / ``discarder`` (the bot index, -1 none),
    ``fan_total`` and ``scores`` (``(games, 4)``, each bot's change of score).
    ``rules`` is the preset's name and ``rule_options`` every option. ``invalid`` holds,
    per bot, how many of its answers were replaced by its fallback during the games (a
    bot that counts them, such as :class:`~majiang.bots.BotzoneBot`, in its ``illegal``
    attribute), ``None`` for a bot that does not count; ``invalid`` itself is ``None``
    when no bot counts. Results pickle and copy.
    """

    bots: list[str]
    wall: np.ndarray
    seats: np.ndarray
    winner: np.ndarray
    discarder: np.ndarray
    fan_total: np.ndarray
    scores: np.ndarray
    rules: str = "gb"
    seed: int = 0
    duplicate: bool = True
    rule_options: dict[str, Any] = field(default_factory=dict)
    invalid: list[int | None] | None = None

    def __len__(self) -> int:
        return int(self.winner.shape[0])

    def rule_set(self) -> RuleSet:
        """The games' rule set, with its options."""
        return RuleSet(self.rules, **self.rule_options)

    def summary(self) -> list[dict[str, Any]]:
        """Per bot (in ``bots`` order): ``bot``, ``games``, ``mean_score`` and its ``ci95``
        (low, high), ``win_rate``, ``deal_in_rate``, ``self_draw_rate``, ``mean_fan`` (of
        its wins), ``draw_rate`` (hands without a winner) and ``invalid`` (answers replaced
        by the bot's fallback, ``None`` for a bot that does not count them).

        The interval treats walls as the independent samples: under duplicate play the four
        games of a wall are averaged first, which removes most of the luck of the deal."""
        n = len(self)
        draws = float((self.winner < 0).mean()) if n else 0.0
        out = []
        for b, name in enumerate(self.bots):
            sc = self.scores[:, b].astype(np.float64)
            if n and self.duplicate:
                walls, inverse = np.unique(self.wall, return_inverse=True)
                inverse = inverse.ravel()
                sums = np.bincount(inverse, weights=sc, minlength=len(walls))
                counts = np.bincount(inverse, minlength=len(walls))
                mean, ci = _mean_ci(sums / counts)
            else:
                mean, ci = _mean_ci(sc)
            wins = self.winner == b
            n_wins = int(wins.sum())
            out.append(
                {
                    "bot": name,
                    "seat": b,
                    "games": n,
                    "mean_score": mean,
                    "ci95": ci,
                    "win_rate": n_wins / n if n else 0.0,
                    "deal_in_rate": float((self.discarder == b).mean()) if n else 0.0,
                    "self_draw_rate": float((wins & (self.discarder < 0)).mean()) if n else 0.0,
                    "mean_fan": float(self.fan_total[wins].mean()) if n_wins else 0.0,
                    "draw_rate": draws,
                    "invalid": self.invalid[b] if self.invalid else None,
                }
            )
        return out

    def format_table(self) -> str:
        """The per-bot figures as a text table (what ``majiang arena`` prints)."""
        # Points-priced wins (huainan) are valued in 倍, not in fan.
        value = "mean 倍" if unit(self.rules) == "points" else "mean fan"
        width = max([12, *(len(b) for b in self.bots)])
        counts = self.invalid is not None and any(x is not None for x in self.invalid)
        head = (
            f"{'#':>2} {'bot':<{width}} {'mean score':>11} {'95% CI':>19} {'win':>7} "
            f"{'deal-in':>8} {'self-draw':>9} {value:>8} {'draws':>7}"
        ) + (f" {'invalid':>8}" if counts else "")
        walls = ", private walls" if self.rule_options.get("private_walls") else ""
        lines = [
            f"{len(self):,} hands, rules {self.rules}{walls}, seed {self.seed}, "
            f"{'duplicate' if self.duplicate else 'fixed seats'}",
            head,
        ]
        for i, s in enumerate(self.summary()):
            lo, hi = s["ci95"]
            row = (
                f"{i:>2} {s['bot']:<{width}} {s['mean_score']:>+11.3f} "
                f"{f'[{lo:+.2f}, {hi:+.2f}]':>19} {s['win_rate']:>7.2%} "
                f"{s['deal_in_rate']:>8.2%} {s['self_draw_rate']:>9.2%} "
                f"{s['mean_fan']:>8.2f} {s['draw_rate']:>7.2%}"
            )
            if counts:
                row += f" {'-' if s['invalid'] is None else s['invalid']:>8}"
            lines.append(row)
        return "\n".join(lines)


def _bot_name(bot: Any) -> str:
    name = getattr(bot, "name", None)
    if isinstance(name, str) and name:
        return name
    return type(bot).__name__


def _arena_entries(bots: str | Sequence[Any]) -> tuple[list[str], list[Any]]:
    """The names of the four entries and, per entry, the Python bot (None for a built-in
    name)."""
    if isinstance(bots, str):
        return _bot_list(bots), [None] * 4
    entries = list(bots)
    if len(entries) == 1 and isinstance(entries[0], str):
        entries = entries * 4
    if len(entries) != 4:
        raise InvalidArgumentError(
            f"bots needs one name or four entries (one per seat), got {len(entries)}"
        )
    names: list[str] = []
    objects: list[Any] = []
    for i, b in enumerate(entries):
        if isinstance(b, str):
            names.append(_bot_list([b])[0])
            objects.append(None)
        elif callable(getattr(b, "act", None)):
            if any(b is o for o in objects):
                raise InvalidArgumentError(
                    f"bot {i} is the same object as an earlier entry: give each seat its own bot"
                )
            names.append(_bot_name(b))
            objects.append(b)
        else:
            raise InvalidTypeError(
                f"bot {i} must be a built-in bot name or an object with act(observation), "
                f"got {type(b).__name__}"
            )
    return names, objects


def _illegal_count(bot: Any) -> int | None:
    """A Python bot's count of answers replaced by its fallback (``illegal``), or None."""
    n = getattr(bot, "illegal", None)
    return n if isinstance(n, int) and not isinstance(n, bool) else None


def arena(
    bots: str | Sequence[Any],
    *,
    hands: int,
    seed: int = 0,
    rules: str | RuleSet = "gb",
    duplicate: bool = True,
    threads: int | None = None,
    progress: bool = False,
) -> ArenaResult:
    """Plays ``hands`` hands between four bots and returns per-bot figures in an
    :class:`ArenaResult`.

    ``bots`` (seat order of the first game): built-in names (``"random"``,
    ``"efficiency"``, ``"strong"``, ``"strong_lite"``, ``"strong_search"``,
    ``"expert"``; a list or comma-separated text, one name for all four seats), or a
    list mixing names with
    Python bots: objects with ``act(observation) -> Action``, the interface
    :class:`~majiang.Game` uses (e.g. :class:`~majiang.bots.BotzoneBot` running an
    external Botzone program), each seat its own object.

    ``duplicate`` (default): each wall is played four times with the seats rotated, so
    every bot plays every seat on the same tiles; ``hands`` is then rounded up to a
    multiple of four (at most :data:`MAX_IN_MEMORY_HANDS`). Game ``j`` is played on wall
    ``j // 4`` (``j`` without duplicate), shuffled from ``derive_seed(seed, wall)``, with
    dealer ``wall % 4`` and prevalent wind ``(wall // 4) % 4``; the same seed gives the
    same walls whichever bots play.

    Built-in bots only: the games are played in Rust, multithreaded (``threads``, 1 to
    :data:`MAX_THREADS`; all cores when None), GIL released; the same seed gives the same
    games whatever the thread count. With a Python bot the same Rust arena deals, seats
    and seeds the games and plays them one after another on the calling thread
    (``threads`` is not used): the built-in bots play in Rust as they would there, and
    each Python bot is asked ``act(observation)`` (the round's own
    :class:`~majiang.Observation` of its seat) for every decision of its seat, and told
    ``begin_hand(seed)`` before each game when it has that method (the seed a built-in
    bot in its place would get, so a Python wrapper of a built-in policy that reseeds
    from it plays the Rust arena's games). A Python bot that raises, or returns an action
    that is not legal, stops the arena with :class:`~majiang.BotError`
    (:class:`~majiang.IllegalBotActionError` for the action; ``ArenaBotError`` is the
    same class) naming the bot (``bot``, ``name``), the ``game`` and its ``seat``, with
    ``partial`` the :class:`ArenaResult` of the games finished before it and the bot's
    exception chained. Answers a bot replaces by its own fallback
    (``BotzoneBot.illegal``) are reported in :attr:`ArenaResult.invalid`.

    Ctrl-C raises ``KeyboardInterrupt`` whose ``partial`` is an :class:`ArenaResult` of
    the games finished.
    """
    n = _check_count("hands", hands)
    seed = _check_seed(seed)
    names, objects = _arena_entries(bots)
    threads = _check_threads(threads)
    if not isinstance(duplicate, bool):
        raise InvalidTypeError(f"duplicate must be a bool, got {type(duplicate).__name__}")
    if duplicate:
        n = 4 * math.ceil(n / 4)
    _check_in_memory("hands", n)
    rule_name, options = _rules_spec(rules)
    meta: dict[str, Any] = {
        "rules": rule_name,
        "seed": seed,
        "duplicate": duplicate,
        "rule_options": options,
    }
    counted = [None if o is None else _illegal_count(o) for o in objects]

    def result(d: dict[str, np.ndarray]) -> ArenaResult:
        invalid = None
        if any(c is not None for c in counted):
            invalid = [
                None if c is None else (_illegal_count(o) or 0) - c
                for o, c in zip(objects, counted, strict=True)
            ]
        return ArenaResult(bots=names, **_columns(d, _ARENA_COLUMNS), **meta, invalid=invalid)

    def play(report: Callable[[int], None] | None) -> dict[str, np.ndarray]:
        try:
            return _core.arena_games(
                n,
                rules=rules,
                bots=[name if o is None else o for name, o in zip(names, objects, strict=True)],
                seed=seed,
                duplicate=duplicate,
                threads=threads,
                progress=report,
                names=names,
            )
        except BotError as e:
            if isinstance(e.partial, dict):
                e.partial = result(e.partial)
            raise

    return _run_in_memory("arena", n, progress, play, result)
