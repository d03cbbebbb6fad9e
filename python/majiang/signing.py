"""Keyed signatures over match records and shard manifests: authenticity, not only
integrity.

A record's digest and a shard manifest's digests catch damage, but whoever edits a file
can recompute them. A signature made with a key only you (your club, your lab) hold
cannot be recomputed without it: ``HMAC-SHA256`` over the signed content, written as
``"hmac-sha256:<hex>"`` in the record's trailer (``MatchRecord.save(path, key=...)``,
``RecordWriter(path, record, key=...)``, ``Game(..., record_key=...)``) or in the
manifest of a shard directory (``simulate(n, out=DIR, key=...)``). Loading with the key
(``MatchRecord.load(path, key=...)``, ``SimResult.load(DIR, key=...)``, ``majiang replay
--key-file``, ``majiang simulate --verify DIR --key-file``) refuses a file that is not
signed, or whose signature does not match: changed after signing, or signed with another
key. Loading without a key reads a signed file as any other and says the signature was
not checked.

A key is at least :data:`MIN_KEY_BYTES` bytes (``bytes``, or ``str`` taken as UTF-8);
:func:`new_key` makes one and :func:`read_key` reads one from a file (the file's bytes,
without a final line break). Keep the key file readable by you alone (``chmod 600``);
anyone who has it can sign. The signature covers the bytes of the record's lines (the
header, the hands, and the trailer's own fields) or every field of the manifest (which
lists each shard's SHA-256, so the shards are covered too), under a label that keeps a
record's signature from passing as a manifest's.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets

from .errors import InvalidArgumentError, InvalidTypeError

__all__ = ["MIN_KEY_BYTES", "PREFIX", "key_bytes", "mac", "new_key", "read_key", "sign", "verify"]

#: The shortest key accepted (bytes).
MIN_KEY_BYTES = 16
#: How a signature value starts.
PREFIX = "hmac-sha256:"
#: The largest key file :func:`read_key` reads.
_MAX_KEY_FILE = 1 << 16


def key_bytes(key: object, what: str = "key") -> bytes:
    """The key as bytes (``InvalidTypeError`` for another type, ``InvalidArgumentError``
    for one shorter than :data:`MIN_KEY_BYTES`)."""
    if isinstance(key, str):
        key = key.encode("utf-8")
    if not isinstance(key, bytes | bytearray | memoryview):
        raise InvalidTypeError(f"{what} must be bytes or str, got {type(key).__name__}")
    data = bytes(key)
    if len(data) < MIN_KEY_BYTES:
        raise InvalidArgumentError(
            f"{what} must be at least {MIN_KEY_BYTES} bytes, got {len(data)} "
            "(majiang.signing.new_key() makes one)"
        )
    return data


def new_key() -> str:
    """A new random key: 64 hexadecimal digits (32 random bytes)."""
    return secrets.token_hex(32)


def read_key(path: str | os.PathLike[str]) -> bytes:
    """The key in a file: its bytes, without a final line break (``OSError`` when the
    file cannot be read; ``InvalidArgumentError`` for one too short or too long)."""
    with open(path, "rb") as f:
        data = f.read(_MAX_KEY_FILE + 1)
    if len(data) > _MAX_KEY_FILE:
        raise InvalidArgumentError(f"{os.fspath(path)}: a key file of more than 64 KiB")
    if data.endswith(b"\r\n"):
        data = data[:-2]
    elif data.endswith(b"\n"):
        data = data[:-1]
    return key_bytes(data, f"the key in {os.fspath(path)}")


def mac(key: object, label: str) -> hmac.HMAC:
    """An HMAC-SHA256 with ``key``, fed the ``label`` and its zero byte: feed it the
    signed content, then ``PREFIX + mac.hexdigest()`` is the signature."""
    return hmac.new(key_bytes(key), label.encode("utf-8") + b"\0", hashlib.sha256)


def sign(key: object, label: str, data: bytes) -> str:
    """The signature of ``data`` under ``label`` (what is signed: ``"majiang-record"``,
    ``"majiang-simulation-shards"``) with ``key``."""
    m = mac(key, label)
    m.update(data)
    return PREFIX + m.hexdigest()


def verify(key: object, label: str, data: bytes, signature: object) -> bool:
    """True when ``signature`` is the signature of ``data`` under ``label`` with ``key``
    (compared in constant time)."""
    if not isinstance(signature, str):
        return False
    return hmac.compare_digest(sign(key, label, data), signature)
