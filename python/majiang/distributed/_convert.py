"""Many files into rows on a Ray cluster: the files sharded over tasks, each task's rows
streamed into shard files of a directory, the driver keeping its manifest.

The per-file work is pluggable: a *converter* takes the path of one input file and
returns its rows as columns of numpy arrays (see :class:`FileConverter`). This is how
game logs become training samples at cluster scale: :class:`GameSamples` reads a file
with :mod:`majiang.data` (a Botzone log, an IJCAI dump one match at a time, a human
match file) and gives the training samples of its games; :func:`botzone_hands` gives one
row per Botzone log (read with :func:`majiang.botzone.read_log`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import re
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from .._files import atomic_write
from ..errors import (
    InvalidArgumentError,
    InvalidTypeError,
    MajiangError,
    ResultFileError,
    ShardError,
)
from ..sim import (
    _canonical,
    _check_count,
    _check_format,
    _check_writable_dir,
    _npz_bytes,
    _read_manifest_json,
    _read_npz,
    _RunLock,
    _sha256_file,
    _write_why,
)
from ._runner import (
    Job,
    Progress,
    check_retries,
    hostname,
    raise_shard_error,
    ray_module,
    run_jobs,
)

__all__ = [
    "FILES_PER_TASK",
    "ROWS_PER_SHARD",
    "FileConverter",
    "GameSamples",
    "RowShards",
    "botzone_hands",
    "converter_name",
    "map_files",
]

#: Input files per task (the default of ``files_per_task``).
FILES_PER_TASK = 64
#: Most rows per shard file (the default of ``rows_per_shard``): a task holds at most
#: this many rows (and one file's rows) in memory before writing them.
ROWS_PER_SHARD = 100_000
#: Seconds between two writes of the manifest while tasks finish (and once at the end).
MANIFEST_EVERY = 1.0

_FORMAT = "majiang-row-shards"
_VERSION = 1
_MANIFEST = "manifest.json"
_INPUTS = "inputs.txt"
_KEYS = {
    "format",
    "version",
    "converter",
    "inputs",
    "inputs_sha256",
    "files_per_task",
    "columns",
    "rows",
    "tasks",
    "complete",
    "digest",
}
_PIECE = re.compile(r"rows-(\d{9,})-(\d{4})\.npz")
_STALE = re.compile(
    r"\.(?:manifest\.json|inputs\.txt|rows-\d{9,}-\d{4}\.npz)\..*\.tmp|\.majiang-probe-.*"
)
_COLUMN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")
_HEX = frozenset("0123456789abcdef")


class FileConverter(Protocol):
    """What :func:`map_files` calls on every input file (the hook a reader of game logs
    plugs in): ``convert(path)`` returns the file's rows, either one batch or an
    iterable of batches (a generator streams a large file). A batch is a mapping from
    column name (letters, digits and ``_``) to a numpy array whose first axis is the
    row; every column of a batch has the same number of rows, and every batch of every
    file has the same columns, dtypes (any but object and structured; strings of any
    length) and shapes after the first axis.

    It must be picklable (a module-level function, or an instance of a module-level
    class), importable on every node, and deterministic (the same file gives the same
    rows), so that a retried or resumed task writes what the first would have. It may
    raise for a file it cannot read (with ``skip_errors`` that file is skipped and
    listed). Its name in the manifest is its ``converter_name`` attribute when it has
    one (a string that should change whenever its options or output do), else its
    module and qualified name; a resumed run must use a converter of the same name."""

    def __call__(self, path: str) -> Mapping[str, Any] | Iterable[Mapping[str, Any]]: ...


def converter_name(convert: Any) -> str:
    """The name a converter is recorded under (see :class:`FileConverter`)."""
    name = getattr(convert, "converter_name", None)
    if isinstance(name, str) and name:
        return name
    target = convert if hasattr(convert, "__qualname__") else type(convert)
    return f"{getattr(target, '__module__', '?')}:{getattr(target, '__qualname__', '?')}"


def botzone_hands(path: str) -> dict[str, np.ndarray]:
    """A converter: one row per Botzone log (the judge's input, or the log Botzone keeps
    of a match), read and checked with :func:`majiang.botzone.read_log`.

    Columns: ``winner`` (int8, the winning player, -1 for none), ``discarder`` (int8, the
    player who dealt in, -1 for a self-draw or no win), ``fan_total`` (int32, 0 without
    a win), ``turns`` (uint16, discards in the hand), ``refused`` (int8, the player the
    judge penalised for a refused answer, -1 for none) and ``scores`` (``(1, 4)``
    int32, each player's score change). Players are Botzone's (player 0 deals). A log
    that cannot be read raises :class:`~majiang.LogError`."""
    from ..botzone import read_log

    rec = read_log(path)
    winner = discarder = refused = -1
    fan_total = 0
    if rec.refusal is not None:
        events = rec.refusal.events
        scores = list(rec.refusal.scores)
        refused = rec.refusal.player
    else:
        hand = rec.hands[0]
        events = hand.events
        scores = list(hand.result["deltas"])
        wins = hand.result["wins"]
        if wins:
            w = wins[0]
            winner = int(w["seat"])
            fan_total = int(w["fan_total"])
            if w.get("from") is not None and w["from"] != w["seat"]:
                discarder = int(w["from"])
    turns = sum(1 for e in events if e.get("type") == "discard")
    return {
        "winner": np.array([winner], dtype=np.int8),
        "discarder": np.array([discarder], dtype=np.int8),
        "fan_total": np.array([fan_total], dtype=np.int32),
        "turns": np.array([turns], dtype=np.uint16),
        "refused": np.array([refused], dtype=np.int8),
        "scores": np.array([scores], dtype=np.int32),
    }


class GameSamples:
    """A converter: the training samples of the games of one file, read with
    :func:`majiang.data.read` (a Botzone judge log, a human match file) or, for an IJCAI
    dump, :func:`majiang.data.iter_ijcai` one match at a time (a dump of any size in
    flat memory), each game replayed through the engine, and turned into arrays by
    :func:`majiang.data.samples` with ``features`` (``"v1"`` or ``"v2"``) and
    ``augment``. Columns: ``planes``, ``mask``, ``action``, ``seat``, ``score`` as
    :class:`majiang.data.Samples`, and ``game``, the game's index within its file. A
    game that does not replay raises :class:`~majiang.DataError` (with ``skip_errors``
    its file is skipped and listed)."""

    def __init__(self, features: str = "v1", augment: bool = False) -> None:
        if features not in ("v1", "v2"):
            raise InvalidArgumentError(f"features must be 'v1' or 'v2', got {features!r}")
        if not isinstance(augment, bool):
            raise InvalidTypeError(f"augment must be a bool, got {type(augment).__name__}")
        self.features = features
        self.augment = augment
        #: The name :func:`map_files` records (it changes with the options).
        self.converter_name = f"majiang.data.samples(features={features!r}, augment={augment})"

    def __repr__(self) -> str:
        return f"GameSamples(features={self.features!r}, augment={self.augment})"

    def __call__(self, path: str) -> Iterator[dict[str, np.ndarray]]:
        from .. import data
        from ..errors import DataError

        with open(path, "rb") as f:
            head = f.read(4096).lstrip()
        if head.startswith(b"Match"):
            for i, game in enumerate(data.iter_ijcai(path)):
                if isinstance(game, DataError):
                    raise game
                arrays = self._arrays(data.samples([game], **self._options()))
                arrays["game"][:] = i
                yield arrays
        else:
            games = data.read(path)
            assert isinstance(games, list)
            yield self._arrays(data.samples(games, **self._options()))

    def _options(self) -> dict[str, Any]:
        return {"features": self.features, "augment": self.augment}

    @staticmethod
    def _arrays(samples: Any) -> dict[str, np.ndarray]:
        return dict(samples.arrays())


# ---- the worker's side ---------------------------------------------------------------------


def _dtype_name(dtype: np.dtype) -> str:
    if dtype.kind == "U":
        return "str"
    if dtype.kind == "S":
        return "bytes"
    return dtype.name


def _batch_spec(batch: Any) -> tuple[dict[str, Any], int]:
    """The column spec of one batch (each column's dtype and row shape) and its rows;
    raises InvalidArgumentError / InvalidTypeError for a batch a converter must not give."""
    if not isinstance(batch, Mapping):
        raise InvalidTypeError(
            f"a converter's batch must be a mapping of column name to array, got "
            f"{type(batch).__name__}"
        )
    if not batch:
        raise InvalidArgumentError("a converter's batch has no columns")
    spec: dict[str, Any] = {}
    rows = -1
    for name, value in batch.items():
        if not isinstance(name, str) or not _COLUMN_NAME.fullmatch(name):
            raise InvalidArgumentError(
                f"column name {str(name)[:70]!r}: use letters, digits and _ (at most 64)"
            )
        a = np.asarray(value)
        if a.dtype.hasobject or a.dtype.kind == "V":
            raise InvalidTypeError(
                f"column {name!r} has dtype {a.dtype}: object and structured arrays cannot "
                "be written without pickle"
            )
        if a.ndim == 0:
            raise InvalidArgumentError(f"column {name!r} is a scalar; it needs a row axis")
        if rows >= 0 and a.shape[0] != rows:
            raise InvalidArgumentError(
                f"column {name!r} has {a.shape[0]} rows, the batch's others {rows}"
            )
        rows = a.shape[0]
        spec[name] = {"dtype": _dtype_name(a.dtype), "shape": list(a.shape[1:])}
    return spec, rows


def _batches(value: Any) -> Iterator[Mapping[str, Any]]:
    if isinstance(value, Mapping):
        yield value
    elif value is not None:
        yield from value


def _piece_name(first: int, k: int) -> str:
    return f"rows-{first:09d}-{k:04d}.npz"


class _TaskRows:
    """A task's output: rows gathered up to ``rows_per_shard``, then written as the next
    shard file (temporary file, renamed)."""

    def __init__(self, directory: Path, first: int, rows_per_shard: int) -> None:
        self.directory = directory
        self.first = first
        self.rows_per_shard = rows_per_shard
        self.spec: dict[str, Any] | None = None
        self.buffer: dict[str, list[np.ndarray]] = {}
        self.held = 0
        self.rows = 0
        self.pieces: list[dict[str, Any]] = []

    def check(self, spec: dict[str, Any], source: str) -> None:
        if self.spec is None:
            self.spec = spec
        elif spec != self.spec:
            raise InvalidArgumentError(
                f"{source}: the converter's columns {json.dumps(spec)[:300]} differ from "
                f"those of the rows before ({json.dumps(self.spec)[:300]})"
            )

    def take(self, batch: Mapping[str, Any], rows: int) -> None:
        if rows == 0:
            return
        assert self.spec is not None
        for c in self.spec:
            self.buffer.setdefault(c, []).append(np.asarray(batch[c]))
        self.held += rows
        if self.held >= self.rows_per_shard:
            self.write()

    def write(self) -> None:
        if not self.held:
            return
        arrays = {c: np.concatenate(parts) for c, parts in self.buffer.items()}
        name = _piece_name(self.first, len(self.pieces))
        data = _npz_bytes(arrays)
        try:
            atomic_write(self.directory / name, data)
        except OSError as e:
            raise ResultFileError(
                f"{self.directory / name}: cannot write ({_write_why(e)})"
            ) from None
        self.pieces.append(
            {"file": name, "rows": self.held, "sha256": hashlib.sha256(data).hexdigest()}
        )
        self.rows += self.held
        self.buffer, self.held = {}, 0


def _convert_files(
    out: str,
    first: int,
    paths: list[str],
    convert: Any,
    rows_per_shard: int,
    skip_errors: bool,
    input_column: str | None = None,
) -> dict[str, Any]:
    """The task of :func:`map_files`: converts inputs ``first ..`` (``paths``) in order and
    writes their rows as shard files ``rows-<first>-<k>.npz`` of ``out`` (with
    ``input_column``, a column of each row's input index added); returns what the
    manifest lists of the task."""
    directory = Path(out)
    if not directory.is_dir():
        raise ResultFileError(
            f"{out} is not a directory on {hostname()}: out= must be a directory every node "
            "sees at the same path (a shared file system)"
        )
    task = _TaskRows(directory, first, rows_per_shard)
    skipped = []

    def batches(path: str, index: int) -> Iterator[Mapping[str, Any]]:
        for b in _batches(convert(path)):
            if input_column is None:
                yield b
                continue
            if not isinstance(b, Mapping):
                yield b  # refused by _batch_spec
                continue
            if input_column in b:
                raise InvalidArgumentError(
                    f"the converter gives a column named {input_column!r}, the input_column"
                )
            _, rows = _batch_spec(b)
            yield {**b, input_column: np.full(rows, index, dtype=np.int64)}

    for i, path in enumerate(paths):
        try:
            if skip_errors:
                # The file's rows are held until it is read through, so that a file that
                # fails half-way leaves none.
                got = [(b, *_batch_spec(b)) for b in batches(path, first + i)]
                for _, spec, _ in got:
                    task.check(spec, path)
                for b, _, rows in got:
                    task.take(b, rows)
            else:
                for b in batches(path, first + i):
                    spec, rows = _batch_spec(b)
                    task.check(spec, path)
                    task.take(b, rows)
        except ResultFileError:
            raise
        except Exception as e:  # noqa: BLE001 - the converter's failure, whatever it is
            error = f"{type(e).__name__}: {e}"
            if not skip_errors:
                raise ShardError(
                    f"input {first + i:,} ({path}): {error}",
                    shard=f"input {first + i:,}",
                    first=first + i,
                    count=1,
                    unit="inputs",
                    error=error,
                    node=hostname(),
                ) from e
            skipped.append({"input": first + i, "error": error[:1000]})
    task.write()
    return {
        "first": first,
        "inputs": len(paths),
        "rows": task.rows,
        "shards": task.pieces,
        "skipped": skipped,
        "columns": task.spec,
        "node": hostname(),
    }


# ---- the directory ----------------------------------------------------------------------------


def _inputs_digest(paths: Sequence[str]) -> str:
    return hashlib.sha256(("\n".join(paths) + "\n").encode("utf-8", "surrogateescape")).hexdigest()


def _good_task(t: Any, files_per_task: int, inputs: int) -> bool:
    if not (isinstance(t, dict) and set(t) == {"first", "inputs", "rows", "shards", "skipped"}):
        return False
    first, n = t["first"], t["inputs"]
    if not (type(first) is int and type(n) is int and type(t["rows"]) is int):
        return False
    if (
        first < 0
        or first % files_per_task
        or first >= inputs
        or n != min(files_per_task, inputs - first)
    ):
        return False
    pieces, skipped = t["shards"], t["skipped"]
    if not isinstance(pieces, list) or not isinstance(skipped, list):
        return False
    rows = 0
    for k, p in enumerate(pieces):
        if not (
            isinstance(p, dict)
            and set(p) == {"file", "rows", "sha256"}
            and p["file"] == _piece_name(first, k)
            and type(p["rows"]) is int
            and p["rows"] > 0
            and isinstance(p["sha256"], str)
            and len(p["sha256"]) == 64
            and set(p["sha256"]) <= _HEX
        ):
            return False
        rows += p["rows"]
    return rows == t["rows"] and all(
        isinstance(s, dict)
        and set(s) == {"input", "error"}
        and type(s["input"]) is int
        and first <= s["input"] < first + n
        and isinstance(s["error"], str)
        for s in skipped
    )


def _read_manifest(path: Path) -> dict[str, Any]:
    mpath = path / _MANIFEST
    m = _read_manifest_json(path)
    _check_format(mpath, m, _FORMAT, "row shard manifest", (_VERSION,))
    extra = sorted(set(m) - _KEYS)
    missing = sorted(_KEYS - set(m))
    if extra or missing:
        raise ResultFileError(
            f"{mpath}: "
            + (f"unknown fields {', '.join(extra)[:200]}" if extra else "")
            + ("; " if extra and missing else "")
            + (f"missing fields {', '.join(missing)}" if missing else "")
        )
    want = "sha256:" + hashlib.sha256(_canonical(m, "digest")).hexdigest()
    if m["digest"] != want:
        raise ResultFileError(
            f"{mpath}: the manifest's digest does not match its fields: it was edited or damaged"
        )
    inputs, fpt, tasks = m["inputs"], m["files_per_task"], m["tasks"]
    if not (type(inputs) is int and inputs >= 0 and type(fpt) is int and fpt >= 1):
        raise ResultFileError(f"{mpath}: inputs and files_per_task must be counts")
    if not isinstance(m["converter"], str) or not isinstance(m["inputs_sha256"], str):
        raise ResultFileError(f"{mpath}: converter and inputs_sha256 must be text")
    columns = m["columns"]
    if columns is not None and not (
        isinstance(columns, dict)
        and all(
            isinstance(v, dict)
            and set(v) == {"dtype", "shape"}
            and isinstance(v["dtype"], str)
            and isinstance(v["shape"], list)
            and all(type(x) is int and x >= 0 for x in v["shape"])
            for v in columns.values()
        )
    ):
        raise ResultFileError(f"{mpath}: columns must map each name to its dtype and shape")
    for name, v in (columns or {}).items():
        try:
            _dtype_of(v["dtype"])
        except ValueError:
            raise ResultFileError(
                f"{mpath}: column {str(name)[:70]!r} has the dtype {str(v['dtype'])[:70]!r}, "
                "not a numeric or text dtype"
            ) from None
    if not isinstance(tasks, list):
        raise ResultFileError(f"{mpath}: tasks must be a list")
    at = 0
    rows = 0
    for k, t in enumerate(tasks):
        if not _good_task(t, fpt, inputs) or t["first"] < at:
            raise ResultFileError(f"{mpath}: task {k} is malformed: {str(t)[:200]}")
        at = t["first"] + t["inputs"]
        rows += t["rows"]
    if rows != m["rows"] or m["complete"] is not (len(tasks) == math.ceil(inputs / fpt)):
        raise ResultFileError(f"{mpath}: rows or complete do not match the tasks listed")
    return m


def _dtype_of(name: str) -> np.dtype | None:
    """The dtype a manifest names (None for text of any length), or ValueError."""
    if name in ("str", "bytes"):
        return None
    try:
        dtype = np.dtype(name)
    except TypeError:
        raise ValueError(name) from None
    if dtype.kind not in "biufcmM" or dtype.name != name:
        raise ValueError(name)
    return dtype


class RowShards:
    """A row shard directory written by :func:`map_files`, read back: ``rows`` (also
    ``len()``) listed so far, ``complete`` (every task listed), ``columns`` (each
    column's ``dtype`` and row ``shape``; None before any row), ``converter``, the
    number of ``inputs``, and ``skipped`` (``(input index, path, error)`` of each input
    file the converter failed on, with ``skip_errors``). Rows come in input order:
    :meth:`iter_chunks` gives one shard file at a time (each checked against its
    SHA-256), :meth:`arrays` everything at once."""

    def __init__(self, path: Path, manifest: dict[str, Any]) -> None:
        self.path = path
        self.manifest = manifest
        self.converter: str = manifest["converter"]
        self.inputs: int = manifest["inputs"]
        self.columns: dict[str, Any] | None = manifest["columns"]
        self.rows: int = manifest["rows"]
        self.complete: bool = manifest["complete"]

    @classmethod
    def load(cls, path: str | os.PathLike[str], *, verify: bool = True) -> RowShards:
        """Reads the manifest of the directory ``path`` (checked: its own digest, every
        field) and with ``verify`` the SHA-256 of every shard file listed. Raises
        :class:`~majiang.ResultFileError` naming the file and the problem."""
        p = Path(path)
        if not p.is_dir():
            raise ResultFileError(f"{p}: not a directory of row shards")
        shards = cls(p, _read_manifest(p))
        if verify:
            for t in shards.manifest["tasks"]:
                for piece in t["shards"]:
                    shards._check(piece)
        return shards

    def __len__(self) -> int:
        return self.rows

    def __repr__(self) -> str:
        state = "complete" if self.complete else "incomplete"
        return f"RowShards({self.rows:,} rows of {self.inputs:,} inputs, {state}, {self.path})"

    def _check(self, piece: dict[str, Any], data: bytes | None = None) -> None:
        f = self.path / piece["file"]
        try:
            digest = hashlib.sha256(data).hexdigest() if data is not None else _sha256_file(f)
        except FileNotFoundError:
            raise ResultFileError(f"{f}: the shard is missing") from None
        except OSError as e:
            raise ResultFileError(f"{f}: cannot read ({e.strerror or e})") from None
        if digest != piece["sha256"]:
            raise ResultFileError(f"{f}: the shard's SHA-256 does not match the manifest")

    def input_paths(self) -> list[str]:
        """The input files, in order (from ``inputs.txt``, checked against the manifest)."""
        f = self.path / _INPUTS
        try:
            data = f.read_bytes()
        except OSError as e:
            raise ResultFileError(f"{f}: cannot read ({e.strerror or e})") from None
        if hashlib.sha256(data).hexdigest() != self.manifest["inputs_sha256"]:
            raise ResultFileError(f"{f}: its SHA-256 does not match the manifest")
        text = data.decode("utf-8", "surrogateescape")
        return text.split("\n")[:-1] if text else []

    @property
    def skipped(self) -> list[tuple[int, str, str]]:
        """``(input index, path, error)`` of each input file skipped."""
        found = [(s["input"], s["error"]) for t in self.manifest["tasks"] for s in t["skipped"]]
        if not found:
            return []
        paths = self.input_paths()
        return [(i, paths[i], error) for i, error in found]

    def iter_chunks(self) -> Iterator[dict[str, np.ndarray]]:
        """The rows one shard file at a time, in input order, each file checked."""
        for t in self.manifest["tasks"]:
            for piece in t["shards"]:
                f = self.path / piece["file"]
                try:
                    data = f.read_bytes()
                except FileNotFoundError:
                    raise ResultFileError(f"{f}: the shard is missing") from None
                self._check(piece, data)
                arrays = _read_npz(f, data)
                spec = self.columns or {}
                if set(arrays) != set(spec):
                    raise ResultFileError(f"{f}: its columns are not those of the manifest")
                for c, a in arrays.items():
                    want = _dtype_of(spec[c]["dtype"])
                    kind_ok = (
                        a.dtype == want
                        if want is not None
                        else _dtype_name(a.dtype) == spec[c]["dtype"]
                    )
                    if not kind_ok or list(a.shape) != [piece["rows"], *spec[c]["shape"]]:
                        raise ResultFileError(
                            f"{f}: {c} has dtype {a.dtype} and shape {a.shape}, not those of "
                            "the manifest"
                        )
                yield arrays

    def arrays(self) -> dict[str, np.ndarray]:
        """Every row listed, each column one array (mind the memory of a large run)."""
        parts: dict[str, list[np.ndarray]] = {}
        for chunk in self.iter_chunks():
            for c, a in chunk.items():
                parts.setdefault(c, []).append(a)
        if not parts:
            text = {"str": np.dtype("U1"), "bytes": np.dtype("S1")}
            return {
                c: np.zeros((0, *v["shape"]), dtype=_dtype_of(v["dtype"]) or text[v["dtype"]])
                for c, v in (self.columns or {}).items()
            }
        return {c: np.concatenate(v) for c, v in parts.items()}


class _RowWriter:
    """The driver's side of :func:`map_files`: holds the directory's lock, lists each
    finished task after checking its shard files, keeps the manifest."""

    def __init__(
        self,
        path: Path,
        paths: list[str],
        converter: str,
        files_per_task: int,
        resume: bool,
    ) -> None:
        self.path = path
        self.meta: dict[str, Any] = {
            "converter": converter,
            "inputs": len(paths),
            "inputs_sha256": _inputs_digest(paths),
            "files_per_task": files_per_task,
        }
        self.columns: dict[str, Any] | None = None
        self.tasks: dict[int, dict[str, Any]] = {}
        self.repaired: list[str] = []
        self.dirty = False
        if path.exists() and not path.is_dir():
            raise ResultFileError(f"{path} is a file; out= takes a directory for the shards")
        if not path.is_dir():
            _check_writable_dir(path.parent, path)
            try:
                path.mkdir()
            except FileExistsError:
                pass
            except OSError as e:
                raise ResultFileError(f"{path}: cannot create the directory ({e})") from None
        self.lock = _RunLock(path)
        try:
            self._open(paths, resume)
        except BaseException:
            self.lock.release()
            raise

    def _open(self, paths: list[str], resume: bool) -> None:
        path = self.path
        if (path / _MANIFEST).exists():
            if not resume:
                raise ResultFileError(
                    f"{path} already holds a run; pass resume=True to continue it, or choose "
                    "another directory"
                )
            m = _read_manifest(path)
            for k, v in self.meta.items():
                if m[k] == v:
                    continue
                if k in ("inputs", "inputs_sha256"):
                    what = f"over other input files ({m['inputs']:,} of them, not {len(paths):,})"
                else:
                    what = f"with {k} {m[k]!r:.100}, not {v!r:.100}"
                raise ResultFileError(
                    f"{path} holds a run {what}; resume only continues the same run"
                )
            self.columns = m["columns"]
            store = RowShards(path, m)
            for t in m["tasks"]:
                try:
                    for piece in t["shards"]:
                        store._check(piece)
                except ResultFileError as e:
                    self.repaired.append(str(e))
                    for piece in t["shards"]:
                        with contextlib.suppress(OSError):
                            os.unlink(path / piece["file"])
                else:
                    self.tasks[t["first"]] = t
        elif any(p.name != ".lock" and not _STALE.fullmatch(p.name) for p in path.iterdir()):
            raise ResultFileError(
                f"{path} is not empty and holds no {_MANIFEST}; choose an empty or new directory"
            )
        else:
            text = "".join(p + "\n" for p in paths)
            try:
                atomic_write(path / _INPUTS, text.encode("utf-8", "surrogateescape"))
            except OSError as e:
                raise ResultFileError(f"{path / _INPUTS}: cannot write ({_write_why(e)})") from None
        listed = {piece["file"] for t in self.tasks.values() for piece in t["shards"]}
        for entry in os.scandir(path):
            name = entry.name
            junk = _STALE.fullmatch(name) or (_PIECE.fullmatch(name) and name not in listed)
            if junk and not entry.is_dir(follow_symlinks=False):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(entry.path)
        self.dirty = True
        self.flush()

    def missing(self) -> list[int]:
        """The first input of every task not listed."""
        n, k = self.meta["inputs"], self.meta["files_per_task"]
        return [first for first in range(0, n, k) if first not in self.tasks]

    def done_inputs(self) -> int:
        return sum(t["inputs"] for t in self.tasks.values())

    def adopt(self, value: Any, first: int, count: int) -> None:
        """Checks what a task says it wrote (its range, each file's SHA-256 read here,
        its columns those of the run) and lists it."""
        if not (isinstance(value, dict) and value.get("first") == first):
            raise ResultFileError(f"{self.path}: a task's answer is not that of input {first}")
        entry: dict[str, Any] = {
            k: value.get(k) for k in ("first", "inputs", "rows", "shards", "skipped")
        }
        if not _good_task(entry, self.meta["files_per_task"], self.meta["inputs"]) or (
            entry["inputs"] != count
        ):
            raise ResultFileError(
                f"{self.path}: the answer of the task of inputs {first:,} on is malformed: "
                f"{str(entry)[:200]}"
            )
        columns = value.get("columns")
        if columns is not None:
            if self.columns is None:
                self.columns = columns
            elif columns != self.columns:
                raise ResultFileError(
                    f"{self.path}: the converter gave inputs {first:,} on the columns "
                    f"{json.dumps(columns)[:300]}, not those of the run "
                    f"({json.dumps(self.columns)[:300]})"
                )
        for piece in entry["shards"]:
            f = self.path / piece["file"]
            try:
                digest = _sha256_file(f)
            except OSError as e:
                raise ResultFileError(
                    f"{f}: the worker wrote it, but it cannot be read here ({e.strerror or e}): "
                    f"is {self.path} on a file system every node shares, at the same path?"
                ) from None
            if digest != piece["sha256"]:
                raise ResultFileError(
                    f"{f}: its SHA-256 here is not the one the worker computed: the file was "
                    "changed after it was written, or the nodes do not share one file system"
                )
        self.tasks[first] = entry
        self.dirty = True

    def flush(self) -> None:
        if not self.dirty:
            return
        tasks = [self.tasks[k] for k in sorted(self.tasks)]
        n, k = self.meta["inputs"], self.meta["files_per_task"]
        m: dict[str, Any] = {
            "format": _FORMAT,
            "version": _VERSION,
            **self.meta,
            "columns": self.columns,
            "rows": sum(t["rows"] for t in tasks),
            "tasks": tasks,
            "complete": len(tasks) == math.ceil(n / k),
        }
        m["digest"] = "sha256:" + hashlib.sha256(_canonical(m)).hexdigest()
        try:
            atomic_write(
                self.path / _MANIFEST, json.dumps(m, indent=1, ensure_ascii=False).encode()
            )
        except OSError as e:
            raise ResultFileError(
                f"{self.path / _MANIFEST}: cannot write ({_write_why(e)}); the tasks listed "
                "before are intact: make room and run again with resume=True"
            ) from None
        self.dirty = False

    def clean_temporary(self) -> None:
        for entry in os.scandir(self.path):
            if _STALE.fullmatch(entry.name) and not entry.is_dir(follow_symlinks=False):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(entry.path)

    def close(self) -> None:
        self.lock.release()


def _input_list(files: Any) -> list[str]:
    if isinstance(files, (str, bytes, os.PathLike)):
        raise InvalidTypeError("files must be a list of paths, not one path")
    paths = []
    for f in files:
        if not isinstance(f, (str, os.PathLike)):
            raise InvalidTypeError(f"files must hold paths, got {type(f).__name__}")
        p = os.path.abspath(os.fspath(f))
        if "\n" in p or "\r" in p:
            raise InvalidArgumentError(f"a path with a line break cannot be listed: {p[:100]!r}")
        paths.append(p)
    return paths


def map_files(
    files: Iterable[str | os.PathLike[str]],
    convert: FileConverter,
    *,
    out: str | os.PathLike[str],
    resume: bool = False,
    files_per_task: int = FILES_PER_TASK,
    rows_per_shard: int = ROWS_PER_SHARD,
    skip_errors: bool = False,
    input_column: str | None = None,
    address: str | None = None,
    progress: bool = False,
    max_retries: int = 3,
) -> RowShards:
    """Converts every file of ``files`` with ``convert`` on a Ray cluster and streams the
    rows into the directory ``out``, in the order of ``files``; returns the
    :class:`RowShards` that reads them.

    ``convert``: a :class:`FileConverter`, e.g. :func:`botzone_hands` (the readers of
    training samples plug in here). The files are cut into tasks of ``files_per_task``
    consecutive files; each task converts its files in order and writes their rows into
    shard files of at most ``rows_per_shard`` rows (``rows-<first input>-<k>.npz``), so a
    worker holds at most one shard's rows and one file's. The driver (this process)
    holds the directory's lock, checks every shard file's SHA-256 as its task finishes
    and keeps ``manifest.json``; ``inputs.txt`` lists the input files (as absolute
    paths, which every node must be able to read at the same path, as ``out``).

    ``skip_errors``: an input file the converter raises on is skipped (listed with its
    error in :attr:`RowShards.skipped`) instead of failing its task. ``input_column``: the
    name of a column added to every row, the index (int64) of its input file in
    ``files`` (to group or split the rows by file). ``resume=True``
    continues the run ``out`` holds (the same input files, converter name and
    ``files_per_task``, else :class:`~majiang.ResultFileError`): it runs the tasks not
    listed and those whose files are damaged or missing. ``address``, ``progress``
    (input files) and ``max_retries`` as in :func:`simulate`. A failing task raises
    :class:`~majiang.ShardError` naming its inputs, its node and the worker's error (the
    input file and the converter's exception), after the tasks in flight have finished
    and been listed; ``resume=True`` continues.
    """
    paths = _input_list(files)
    if not callable(convert):
        raise InvalidTypeError(f"convert must be callable, got {type(convert).__name__}")
    fpt = _check_count("files_per_task", files_per_task)
    if fpt < 1:
        raise InvalidArgumentError("files_per_task must be >= 1")
    rows_per_shard = _check_count("rows_per_shard", rows_per_shard)
    if rows_per_shard < 1:
        raise InvalidArgumentError("rows_per_shard must be >= 1")
    if not isinstance(skip_errors, bool):
        raise InvalidTypeError(f"skip_errors must be a bool, got {type(skip_errors).__name__}")
    if input_column is not None and not (
        isinstance(input_column, str) and _COLUMN_NAME.fullmatch(input_column)
    ):
        raise InvalidArgumentError(
            f"input_column {str(input_column)[:70]!r}: use letters, digits and _ (at most 64)"
        )
    retries = check_retries(max_retries)
    name = converter_name(convert)
    if input_column is not None:
        name += f" + input column {input_column!r}"
    ray = ray_module(address)
    try:
        ray.cloudpickle.dumps(convert)
    except Exception as e:  # noqa: BLE001 - whatever stops pickling
        raise InvalidArgumentError(
            f"the converter {name} cannot be sent to the workers: it does not pickle "
            f"({type(e).__name__}: {e})"
        ) from None
    path = Path(out).absolute()
    writer = _RowWriter(path, paths, name, fpt, resume)
    failures = []
    try:
        bar = Progress("map_files", "inputs", len(paths), writer.done_inputs(), show=progress)
        for why in writer.repaired:
            bar.note(f"resume: {why}; its task runs again")

        def job(first: int) -> Job:
            count = min(fpt, len(paths) - first)
            what = f"inputs {first:,} to {first + count - 1:,} (from {paths[first]})"
            return Job(
                first,
                count,
                what,
                (
                    str(path),
                    first,
                    paths[first : first + count],
                    convert,
                    rows_per_shard,
                    skip_errors,
                    input_column,
                ),
            )

        last = time.monotonic()

        def every() -> None:
            nonlocal last
            if time.monotonic() - last >= MANIFEST_EVERY:
                writer.flush()
                last = time.monotonic()

        failures = run_jobs(
            ray,
            _convert_files,
            (job(first) for first in writer.missing()),
            lambda j, value: writer.adopt(value, j.first, j.count),
            name="majiang.map_files",
            cpus=1,
            max_retries=retries,
            progress=bar,
            after_each=every,
        )
        writer.flush()
        writer.clean_temporary()
    except KeyboardInterrupt as e:
        with contextlib.suppress(MajiangError):
            writer.flush()
        e.partial = RowShards.load(path, verify=False)  # type: ignore[attr-defined]
        raise
    finally:
        writer.close()
    result = RowShards.load(path, verify=False)
    if failures:
        raise_shard_error(
            failures,
            f"The tasks finished are listed in {path / _MANIFEST}: run again with "
            "resume=True to run the rest.",
            unit="inputs",
            partial=result,
        )
    return result
