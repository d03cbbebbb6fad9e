"""Botzone's three ways of talking to a bot, around a :class:`BotzonePlayer`.

- **Simple IO**: the input is the turn number ``n``, then ``2n - 1`` lines alternating
  requests and the bot's earlier responses, ending with the new request (anything after
  is ignored); the bot prints its response line.
- **JSON IO**: the input is one JSON object with ``requests`` and ``responses`` lists; the
  bot prints ``{"response": ...}`` on one line.
- **Keep-running** (either IO): after its answer the bot prints
  ``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<`` and waits; each later input is just the next
  request (a line, or in JSON IO a JSON string). A full input (a turn number, or a JSON
  object with ``requests``) starts over from it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TextIO

from .._untrusted import load_json, shown
from ..errors import InvalidArgumentError
from .player import BotzonePlayer
from .protocol import KEEP_RUNNING, ProtocolError

__all__ = ["KEEP_RUNNING", "MAX_LINE", "MAX_JSON_LINE", "MAX_TURNS", "run"]

#: The most turns a simple-IO input may announce: a hand has some hundreds of requests.
MAX_TURNS = 2000
#: The longest line of simple IO (characters, without the line break).
MAX_LINE = 1 << 12
#: The longest line of JSON IO (a whole hand's requests and responses).
MAX_JSON_LINE = 1 << 20


def _reader(stdin: TextIO, limit: int) -> Callable[[], str]:
    """Reads one line of at most ``limit`` characters ("" at the end of the input);
    a longer line is a ProtocolError."""

    def read() -> str:
        line = stdin.readline(limit + 2)
        body = line.rstrip("\r\n")
        if len(body) > limit:
            raise ProtocolError(f"an input line longer than {limit:,} characters")
        return line

    return read


def _simple_full(first: str, read: Callable[[], str]) -> tuple[list[str], list[str]]:
    text = first.strip()
    if not text.isdigit():
        raise ProtocolError(f"simple IO starts with the turn number, got {shown(text)}")
    if len(text) > 6:
        raise ProtocolError(f"the turn number must be 1-{MAX_TURNS}, got {shown(text, 20)}")
    n = int(text)
    if not 1 <= n <= MAX_TURNS:
        raise ProtocolError(f"the turn number must be 1-{MAX_TURNS}, got {n}")
    lines = []
    for k in range(2 * n - 1):
        line = read()
        if not line:
            raise ProtocolError(
                f"the input ends after {k} of the {2 * n - 1} lines turn {n} announces"
            )
        lines.append(line.rstrip("\r\n"))
    return lines[0::2], lines[1::2]


def _strings(what: str, items: list) -> list[str]:
    if len(items) > MAX_TURNS:
        raise ProtocolError(f"JSON input with {len(items):,} {what}, more than {MAX_TURNS}")
    bad = next((x for x in items if not isinstance(x, str)), None)
    if bad is not None:
        raise ProtocolError(f"the {what} must be strings, got {type(bad).__name__}")
    return items


def _json_full(obj: dict) -> tuple[list[str], list[str]]:
    reqs, resps = obj.get("requests"), obj.get("responses", [])
    if not isinstance(reqs, list) or not isinstance(resps, list):
        raise ProtocolError("JSON input needs a requests list and a responses list")
    return _strings("requests", reqs), _strings("responses", resps)


def run(
    make_player: Callable[[], BotzonePlayer],
    stdin: TextIO,
    stdout: TextIO,
    *,
    io: str = "simple",
    keep_running: bool = False,
) -> int:
    """Answers Botzone input from ``stdin`` on ``stdout`` in ``io`` (``simple`` or
    ``json``), once or, with ``keep_running``, until the input ends. Returns the number
    of answers given.

    Input is bounded: at most :data:`MAX_TURNS` turns, lines of at most :data:`MAX_LINE`
    characters (:data:`MAX_JSON_LINE` in JSON IO), JSON nested a few levels; an input
    that ends before the lines its turn number announces, or breaks a bound, raises
    ProtocolError quoting at most a short excerpt of it."""
    if io not in ("simple", "json"):
        raise InvalidArgumentError(f"io must be simple or json, got {io!r}")
    read = _reader(stdin, MAX_LINE if io == "simple" else MAX_JSON_LINE)

    def answer(text: str) -> None:
        if io == "json":
            stdout.write(json.dumps({"response": text}) + "\n")
        else:
            stdout.write(text + "\n")
        if keep_running:
            stdout.write(KEEP_RUNNING + "\n")
        stdout.flush()

    player: BotzonePlayer | None = None
    answers = 0
    while True:
        line = read()
        if not line:
            return answers
        if not line.strip():
            continue
        if io == "simple":
            text = line.strip()
            if text.isdigit():
                player = make_player()
                reqs, resps = _simple_full(text, read)
                reply = player.replay(reqs, resps)
            else:
                if player is None:
                    raise ProtocolError("a single request before any full input")
                reply = player.step(text)
        else:
            try:
                value = load_json(line)
            except ValueError as e:
                raise ProtocolError(f"the input line is not JSON IO ({e})") from None
            if isinstance(value, dict):
                player = make_player()
                reqs, resps = _json_full(value)
                reply = player.replay(reqs, resps)
            elif isinstance(value, str):
                if player is None:
                    raise ProtocolError("a single request before any full input")
                reply = player.step(value)
            else:
                raise ProtocolError(
                    f"JSON input must be an object or a string, got {shown(line.strip())}"
                )
        answer(reply)
        answers += 1
        if not keep_running:
            return answers
