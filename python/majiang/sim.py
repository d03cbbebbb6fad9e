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
``resume=True`` continues a run from what ``PATH`` holds (the result is the same as one
uninterrupted run).

The shard directory is plain numpy and JSON, readable without majiang: ``manifest.json``
(format name and version, seed, rule set name and every option, bots, the arrays' dtypes
and shapes, and per shard its file, first hand, hand count and SHA-256) and one
``hands-<first hand>.npz`` per shard holding the seven arrays of those hands. Shards are
numbered by their first hand so that any range of a run can be read on its own and a run
can grow; every file is written under a temporary name and renamed once flushed to disk,
and the manifest is rewritten after each shard, so an interrupted run leaves only
complete, listed shards.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np

from . import _core
from ._core import RuleSet
from .errors import (
    ArenaBotError,
    BotError,
    InvalidArgumentError,
    InvalidTypeError,
    ResultFileError,
)
from .rules import unit

__all__ = [
    "MAX_IN_MEMORY_HANDS",
    "MAX_THREADS",
    "ArenaBotError",
    "ArenaResult",
    "ResultFileError",
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
_FILE_FORMAT = "majiang-simulation"
_SHARDS_FORMAT = "majiang-simulation-shards"
_VERSION = 1
_MANIFEST = "manifest.json"


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


def _fsync_dir(directory: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _atomic_write(path: Path, data: bytes) -> None:
    """Writes ``data`` to ``path``: a temporary file in the same directory, flushed to
    disk, then renamed over ``path``, so ``path`` is always either the old or the new
    file, even if the process dies in between."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(path.parent)


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
    """Raises ResultFileError unless files can be created in ``directory``."""
    if not directory.is_dir():
        raise ResultFileError(f"{what}: the directory {directory} does not exist")
    probe = directory / f".majiang-probe-{os.getpid()}"
    try:
        with open(probe, "wb"):
            pass
        os.unlink(probe)
    except OSError as e:
        raise ResultFileError(f"{what}: cannot write in {directory}: {e.strerror}") from None


def _check_file_target(path: Path) -> None:
    """Checks, before any work, that :meth:`SimResult.save` can write ``path``."""
    if path.is_dir():
        raise ResultFileError(f"{path} is a directory, not a file")
    _check_writable_dir(path.parent if str(path.parent) else Path("."), path)


def _npz_bytes(arrays: dict[str, np.ndarray]) -> bytes:
    buf = io.BytesIO()
    named: dict[str, Any] = dict(arrays)
    np.savez_compressed(buf, **named)
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


def _check_format(source: object, obj: object, fmt: str, what: str) -> None:
    """Raises ResultFileError unless ``obj`` (read from ``source``) is a JSON object naming
    ``fmt`` and the format version this majiang reads; ``what`` names the file kind."""
    if not isinstance(obj, dict) or obj.get("format") != fmt:
        raise ResultFileError(f"{source}: not a majiang {what}")
    if obj.get("version") != _VERSION:
        raise ResultFileError(
            f"{source}: format version {obj.get('version')!r}, this majiang reads {_VERSION}"
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
    return rules, options, bots, seed


def _sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


class _ShardStore:
    """A shard directory: its manifest, checked, and its shards read on demand (each
    file's digest is checked whenever it is read)."""

    def __init__(self, path: Path, manifest: dict[str, Any]) -> None:
        self.path = path
        self.manifest = manifest
        self.rules, self.rule_options, self.bots, self.seed = _check_meta(
            path / _MANIFEST, manifest
        )
        self.shards: list[dict[str, Any]] = manifest["shards"]
        self.hands: int = manifest["hands"]

    @classmethod
    def open(cls, path: Path, verify: bool = True) -> _ShardStore:
        mpath = path / _MANIFEST
        try:
            text = mpath.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise ResultFileError(f"{path}: a directory without {_MANIFEST}") from None
        except (OSError, UnicodeDecodeError) as e:
            raise ResultFileError(f"{mpath}: cannot read ({e})") from None
        try:
            m = json.loads(text)
        except json.JSONDecodeError as e:
            raise ResultFileError(f"{mpath}: not valid JSON ({e})") from None
        _check_format(mpath, m, _SHARDS_FORMAT, "shard manifest")
        shards = m.get("shards")
        hands = m.get("hands")
        if not isinstance(shards, list) or not isinstance(hands, int):
            raise ResultFileError(f"{mpath}: shards must be a list and hands an int")
        at = 0
        for k, sh in enumerate(shards):
            ok = (
                isinstance(sh, dict)
                and isinstance(sh.get("file"), str)
                and sh["file"] == Path(sh["file"]).name
                and not sh["file"].startswith(".")
                and isinstance(sh.get("start"), int)
                and isinstance(sh.get("hands"), int)
                and sh["hands"] > 0
                and isinstance(sh.get("sha256"), str)
            )
            if not ok:
                raise ResultFileError(f"{mpath}: shard {k} is malformed: {sh!r}")
            if sh["start"] != at:
                raise ResultFileError(
                    f"{mpath}: shard {k} starts at hand {sh['start']}, expected {at}"
                )
            at += sh["hands"]
        if at != hands:
            raise ResultFileError(f"{mpath}: the shards hold {at} hands, the manifest says {hands}")
        store = cls(path, m)
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


class _ShardWriter:
    """Streams a run into a shard directory: the ``sink`` of ``_core.simulate_hands``."""

    def __init__(self, path: Path, meta: dict[str, Any], resume: bool) -> None:
        self.path = path
        self.meta = meta
        self.shards: list[dict[str, Any]] = []
        self.hands = 0
        if path.exists() and not path.is_dir():
            raise ResultFileError(f"{path} is a file; out= takes a directory for the shards")
        if path.is_dir() and (path / _MANIFEST).exists():
            if not resume:
                raise ResultFileError(
                    f"{path} already holds a run; pass resume=True (--resume) to continue "
                    "it, or choose another directory"
                )
            store = _ShardStore.open(path)
            self._check_same_run(store)
            self.shards = list(store.shards)
            self.hands = store.hands
        elif path.is_dir():
            if any(not p.name.startswith(".") for p in path.iterdir()):
                raise ResultFileError(
                    f"{path} is not empty and holds no {_MANIFEST}; choose an empty or new "
                    "directory"
                )
        else:
            _check_writable_dir(path.parent if str(path.parent) else Path("."), path)
            try:
                path.mkdir()
            except OSError as e:
                raise ResultFileError(f"{path}: cannot create the directory ({e})") from None
        _check_writable_dir(path, path)
        self._write_manifest()

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
        m = {
            "format": _SHARDS_FORMAT,
            "version": _VERSION,
            **self.meta,
            "columns": {c: {"dtype": d.name, "shape": list(t)} for c, (d, t) in _LAYOUT.items()},
            "hands": self.hands,
            "shards": self.shards,
        }
        data = json.dumps(m, indent=1, ensure_ascii=False).encode("utf-8")
        _atomic_write(self.path / _MANIFEST, data)

    def write(self, first: int, arrays: dict[str, np.ndarray]) -> None:
        """Writes hands ``first ..`` as the next shard and lists it in the manifest."""
        if first != self.hands:
            raise ResultFileError(f"{self.path}: shard at hand {first}, expected {self.hands}")
        n = _check_columns(self.path, arrays)
        name = f"hands-{first:012d}.npz"
        data = _npz_bytes({c: arrays[c] for c in _COLUMNS})
        entry = {
            "file": name,
            "start": first,
            "hands": n,
            "sha256": hashlib.sha256(data).hexdigest(),
        }
        with _ctrl_c_deferred():
            _atomic_write(self.path / name, data)
            self.shards.append(entry)
            self.hands += n
            try:
                self._write_manifest()
            except BaseException:
                self.shards.pop()
                self.hands -= n
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
    def load(cls, path: str | os.PathLike[str], *, verify: bool = True) -> SimResult:
        """Reads a file written by :meth:`save` or a shard directory written by
        ``simulate(..., out=path)``. A directory's manifest is checked at once, and with
        ``verify`` every shard's SHA-256 (one read of each file); its arrays are read when
        first used. Raises :class:`ResultFileError` naming the file and the problem."""
        p = Path(path)
        if p.is_dir():
            return cls._of_store(_ShardStore.open(p, verify=verify))
        if not p.exists():
            raise FileNotFoundError(f"no such simulation file: {p}")
        z = _read_npz(p)
        if "meta" in z:
            try:
                meta = json.loads(str(z["meta"]))
            except (json.JSONDecodeError, ValueError) as e:
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
    ``n_hands`` hands; the arrays equal those of one uninterrupted run.

    Ctrl-C raises ``KeyboardInterrupt`` within a fraction of a second; its ``partial``
    attribute is a :class:`SimResult` of the hands finished (with ``out``, the shards
    written, which ``resume=True`` continues).
    """
    n = _check_count("n_hands", n_hands)
    seed = _check_seed(seed)
    names = _bot_list(bots)
    threads = _check_threads(threads)
    shard_hands = _check_count("shard_hands", shard_hands)
    if shard_hands == 0:
        raise InvalidArgumentError("shard_hands must be >= 1")
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
    writer = _ShardWriter(path, meta, resume)
    start = writer.hands
    if start > n:
        raise ResultFileError(f"{path} already holds {start:,} hands, more than n_hands={n:,}")
    bar = _Progress(n, "simulate", offset=start) if progress else None
    try:
        _core.simulate_hands(
            n - start,
            rules=rules,
            bots=names,
            seed=seed,
            start=start,
            threads=threads,
            sink=writer.write,
            sink_hands=shard_hands,
            progress=bar.update if bar else None,
        )
    except KeyboardInterrupt as e:
        e.partial = SimResult._of_store(  # type: ignore[attr-defined]
            _ShardStore.open(path, verify=False)
        )
        raise
    finally:
        if bar:
            bar.close()
    return SimResult._of_store(_ShardStore.open(path, verify=False))


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
