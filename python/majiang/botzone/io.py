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

from ..errors import InvalidArgumentError
from .player import BotzonePlayer
from .protocol import KEEP_RUNNING, ProtocolError

__all__ = ["KEEP_RUNNING", "run"]


def _simple_full(first: str, read: Callable[[], str]) -> tuple[list[str], list[str]]:
    try:
        n = int(first.strip())
    except ValueError:
        raise ProtocolError(f"simple IO starts with the turn number, got {first!r}") from None
    if n < 1:
        raise ProtocolError(f"the turn number must be at least 1, got {n}")
    lines = [read().rstrip("\r\n") for _ in range(2 * n - 1)]
    return lines[0::2], lines[1::2]


def _json_full(obj: dict) -> tuple[list[str], list[str]]:
    reqs, resps = obj.get("requests"), obj.get("responses", [])
    if not isinstance(reqs, list) or not isinstance(resps, list):
        raise ProtocolError("JSON input needs a requests list and a responses list")
    return [str(r) for r in reqs], [str(r) for r in resps]


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
    of answers given."""
    if io not in ("simple", "json"):
        raise InvalidArgumentError(f"io must be simple or json, got {io!r}")

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
        line = stdin.readline()
        if not line:
            return answers
        if not line.strip():
            continue
        if io == "simple":
            text = line.strip()
            if text.isdigit():
                player = make_player()
                reqs, resps = _simple_full(text, stdin.readline)
                reply = player.replay(reqs, resps)
            else:
                if player is None:
                    raise ProtocolError("a single request before any full input")
                reply = player.step(text)
        else:
            value = json.loads(line)
            if isinstance(value, dict):
                player = make_player()
                reqs, resps = _json_full(value)
                reply = player.replay(reqs, resps)
            elif isinstance(value, str):
                if player is None:
                    raise ProtocolError("a single request before any full input")
                reply = player.step(value)
            else:
                raise ProtocolError(f"JSON input must be an object or a string, got {line!r}")
        answer(reply)
        answers += 1
        if not keep_running:
            return answers
