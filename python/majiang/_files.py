"""Writing files so that neither a crash nor another user of the directory can damage them.

Every file majiang writes (records, simulation files and shard directories, Botzone logs)
goes through :class:`AtomicFile`: the data goes to a temporary file created beside the
target with ``O_CREAT | O_EXCL | O_NOFOLLOW`` under an unpredictable name (``mkstemp``),
so a file or symbolic link planted in a shared directory is never opened or followed;
it is flushed to disk and renamed over the target, which replaces the target itself (a
symbolic link planted at the target's name is replaced, not followed). A reader sees the
old file or the new one, never half of one, and a failed write leaves the old file.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from typing import IO, Any

__all__ = ["AtomicFile", "atomic_write", "new_file_mode", "probe_dir", "sync_dir"]


def sync_dir(d: str | os.PathLike[str]) -> None:
    """Flushes a directory's entries to disk (a rename inside it), where the system can."""
    try:
        fd = os.open(d, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def new_file_mode(target: str) -> int:
    """The mode the target gets: its own when it exists, else what ``open`` would give."""
    try:
        return os.stat(target).st_mode & 0o777
    except OSError:
        umask = os.umask(0o022)
        os.umask(umask)
        return 0o666 & ~umask


class AtomicFile:
    """A temporary file beside `target` (``mkstemp``: ``O_EXCL``, no symbolic link
    followed, an unpredictable name starting with ``.<name>.`` and ending in ``.tmp``),
    renamed over it on a clean exit (removed on an error). ``keep_open`` leaves the file
    open after the rename, for appending."""

    def __init__(self, target: str | os.PathLike[str], keep_open: bool = False):
        self.target = os.fspath(target)
        self.keep_open = keep_open
        d, name = os.path.split(self.target)
        fd, self.tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=d or ".")
        self.file: IO[bytes] = os.fdopen(fd, "wb")
        try:
            os.chmod(self.tmp, new_file_mode(self.target))
        except OSError:
            pass  # a file system without modes keeps mkstemp's

    def __enter__(self) -> IO[bytes]:
        return self.file

    def __exit__(self, kind: Any, value: Any, tb: Any) -> None:
        renamed = False
        try:
            if kind is None:
                self.file.flush()
                os.fsync(self.file.fileno())
                os.replace(self.tmp, self.target)
                renamed = True
                sync_dir(os.path.dirname(self.target) or ".")
        finally:
            if not (renamed and self.keep_open):
                self.file.close()
            if not renamed:
                with contextlib.suppress(OSError):
                    os.unlink(self.tmp)


def atomic_write(target: str | os.PathLike[str], data: bytes) -> None:
    """Writes ``data`` to ``target`` through an :class:`AtomicFile`."""
    with AtomicFile(target) as f:
        f.write(data)


def probe_dir(directory: str | os.PathLike[str]) -> None:
    """Creates and removes a temporary file in ``directory`` (as :class:`AtomicFile`
    does), raising the ``OSError`` of a directory where that cannot be done."""
    fd, name = tempfile.mkstemp(prefix=".majiang-probe-", suffix=".tmp", dir=directory)
    os.close(fd)
    os.unlink(name)
