"""Reading and showing text from files and programs majiang does not control.

- :func:`load_json`: JSON with a bounded nesting depth (a document nested 100,000 deep
  would otherwise exhaust the interpreter's recursion while it is read);
- :func:`printable`: a string as it may be shown on a terminal, every control or format
  character (escape sequences, carriage returns, bidirectional overrides) written as its
  escape, so that a name in a file cannot rewrite what the screen shows;
- :func:`shown`: a short, printable excerpt of a string for an error message, so that
  a 10 MB input is not echoed whole.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any

__all__ = ["MAX_JSON_DEPTH", "load_json", "printable", "shown"]

#: The deepest nesting of arrays and objects :func:`load_json` reads. majiang's own files
#: nest a few levels; a Botzone log about six.
MAX_JSON_DEPTH = 64

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def json_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in JSON ``text`` (brackets inside
    strings not counted)."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    if not brackets:
        return 0
    return max(accumulate(1 if c in "[{" else -1 for c in brackets))


def load_json(text: str | bytes, *, max_depth: int = MAX_JSON_DEPTH, **kw: Any) -> Any:
    """``json.loads(text, **kw)``, refusing a document nested deeper than ``max_depth``
    (``ValueError`` naming the limit; a ``json.JSONDecodeError``, also a ``ValueError``,
    for text that is not JSON)."""
    if isinstance(text, bytes | bytearray):
        text = bytes(text).decode("utf-8")
    depth = json_depth(text)
    if depth > max_depth:
        raise ValueError(f"JSON nested {depth} levels deep, more than the {max_depth} read")
    try:
        return json.loads(text, **kw)
    except RecursionError:  # a decoder hook that recurses on its own
        raise ValueError("JSON nested too deeply") from None


def printable(text: str, limit: int | None = None) -> str:
    """``text`` with every character a terminal would act on (controls, format
    characters, line and paragraph separators) written as its escape (``\\x1b``,
    ``\\u202e``); cut to ``limit`` characters (with ``…``) when given."""
    if limit is not None and len(text) > limit:
        text = text[:limit] + "…"
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def shown(text: str, limit: int = 60) -> str:
    """A quoted, printable excerpt of ``text`` for a message: at most ``limit``
    characters, with the full length said when it is cut."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}… ({len(text):,} characters)"
