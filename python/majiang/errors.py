"""The majiang exception family: every exception the package raises derives from
:class:`MajiangError`.

Each kind also keeps the built-in base a caller would catch without knowing majiang
(``except ValueError`` still catches a malformed hand, ``except TypeError`` an argument of
the wrong type, ``except RuntimeError`` a bot that failed), so the family is one more
base, never a different one:

=========================  =====================  ==========================================
class                      built-in base          raised for
=========================  =====================  ==========================================
``InvalidHandError``       ``ValueError``         malformed tiles, melds or hand flags
``NotWinningError``        ``ValueError``         tiles that do not form a win
``IllegalActionError``     ``ValueError``         an action that is not legal now
``RuleError``              ``ValueError``         an unknown rule set, preset, option or value
``InvalidArgumentError``   ``ValueError``         any other argument out of its range
``InvalidTypeError``       ``TypeError``          an argument of the wrong type
``RecordError``            ``ValueError``         a match record that cannot be read
``ReplayMismatchError``    ``ValueError``         a record the engine does not reproduce
``LogError``               ``ValueError``         a Botzone log that cannot be read
``DataError``              ``ValueError``         a real game (data set) the engine cannot validate
``ProtocolError``          ``ValueError``         malformed Botzone protocol
``ResultFileError``        ``ValueError``         a damaged simulation file or shard directory
``BotError``               ``RuntimeError``       a bot that raised, cheated or timed out
``IllegalBotActionError``  ``ValueError`` too     a bot's action that is not legal
``BotTimeoutError``        ``RuntimeError``       a bot over its time limit
``ShardError``             ``RuntimeError``       a shard of a distributed run that failed
``MissingExtraError``      ``ImportError``        an optional dependency that is not installed
``OutOfMemoryError``       ``MemoryError``        a run whose arrays cannot be reserved
``UsageError``             ``RuntimeError``       a method called in a state that forbids it
=========================  =====================  ==========================================

The Rust core's errors (``majiang._core``) are raised as these same classes. This module
imports nothing from majiang, so every other module (and the extension) can import it.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "ArenaBotError",
    "BotError",
    "BotTimeoutError",
    "DataError",
    "IllegalActionError",
    "IllegalBotActionError",
    "InvalidArgumentError",
    "InvalidHandError",
    "InvalidTypeError",
    "LogError",
    "MajiangError",
    "MissingExtraError",
    "NotWinningError",
    "OutOfMemoryError",
    "ProtocolError",
    "RecordError",
    "ReplayMismatchError",
    "ResultFileError",
    "RuleError",
    "ShardError",
    "UsageError",
]


class MajiangError(Exception):
    """The base of every exception majiang raises."""


class InvalidHandError(MajiangError, ValueError):
    """Malformed tiles, melds or hand flags: an unknown tile, a fifth copy, a wrong tile
    count, a bad meld, flags that cannot all hold. The message names which."""


class NotWinningError(MajiangError, ValueError):
    """The tiles are well formed but do not form a winning hand."""


class IllegalActionError(MajiangError, ValueError):
    """An action that is not legal in the current state of a hand."""


class RuleError(MajiangError, ValueError):
    """An unknown rule set, preset, option name or option value, or a bot or policy used
    under rules it does not play."""


class InvalidArgumentError(MajiangError, ValueError):
    """An argument out of its range (a seat, a seed, a thread or hand count, a size, a
    bot name); the message names the argument."""


class InvalidTypeError(MajiangError, TypeError):
    """An argument of the wrong type (a float where an int belongs, a bool where a count
    belongs, an object that is not an ``Observation``); the message names the argument."""


class UsageError(MajiangError, RuntimeError):
    """A method called in a state that does not allow it (the result of a hand that is
    not over, a step after the episode ended)."""


class MissingExtraError(MajiangError, ImportError):
    """An optional dependency of the feature used is not installed; the message gives the
    command that installs it."""


class OutOfMemoryError(MajiangError, MemoryError):
    """The memory a run needs (its result arrays) cannot be reserved; raised before the
    run starts, with the size asked for."""


class RecordError(MajiangError, ValueError):
    """A record that is not a valid match record. ``source`` is the file (or ``None``),
    ``line`` the 1-based line number (or ``None``), ``problem`` the bare message."""

    def __init__(self, problem: str, *, source: str | None = None, line: int | None = None):
        self.problem = problem
        self.source = source
        self.line = line
        where = [x for x in (source, None if line is None else f"line {line}") if x]
        super().__init__(": ".join([*where, problem]))

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuild, (type(self), (self.problem,), {"source": self.source, "line": self.line})


class ReplayMismatchError(RecordError):
    """Replaying a record through the engine did not reproduce it."""


class LogError(RecordError):
    """A Botzone log that cannot be read as (or a hand that cannot be written as) a
    Botzone game: ``entry`` is the index in the log's ``log`` list (or None), and the
    message names it and the problem."""

    def __init__(self, problem: str, *, source: str | None = None, entry: int | None = None):
        self.entry = entry
        where = problem if entry is None else f"log entry {entry}: {problem}"
        super().__init__(where, source=source)
        self.problem = problem

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuild, (type(self), (self.problem,), {"source": self.source, "entry": self.entry})


class DataError(RecordError):
    """A real game (a Botzone log, an IJCAI match dump, a human match file) that cannot be
    read or does not replay through the engine: ``entry`` names the game in its file (a
    match id, a file name), ``line`` the 1-based line (or None), ``kind`` the class of the
    problem (``"format"``: the text is malformed; ``"illegal"``: an action the rules
    refuse; ``"draw"``: a tile drawn that the wall cannot give; ``"result"``: the end,
    fans or scores differ from the engine's), ``problem`` the bare message."""

    def __init__(
        self,
        problem: str,
        *,
        source: str | None = None,
        entry: str | None = None,
        line: int | None = None,
        kind: str = "format",
    ):
        self.entry = entry
        self.kind = kind
        where = problem if entry is None else f"{entry}: {problem}"
        super().__init__(where, source=source, line=line)
        self.problem = problem

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuild, (
            type(self),
            (self.problem,),
            {"source": self.source, "entry": self.entry, "line": self.line, "kind": self.kind},
        )


class ProtocolError(MajiangError, ValueError):
    """A request or response that is not well-formed Botzone protocol."""


class ResultFileError(MajiangError, ValueError):
    """A simulation file or shard directory that cannot be read or written: the message
    names the path and the problem (missing array, truncated file, wrong dtype or shape,
    bad manifest or digest, a run that does not match)."""


class BotError(MajiangError, RuntimeError):
    """A bot ended a game: it raised, returned an illegal action or took too long.

    The bot's own exception is chained as ``__cause__``. Where the bot played:

    - in :class:`majiang.Game`: ``seat`` is its seat, ``hand`` the index of the hand being
      played and ``record`` the :class:`~majiang.MatchRecord` of the hands finished
      before it;
    - in :func:`majiang.arena` (and the ladder): ``bot`` is its index in ``bots``,
      ``name`` its name, ``game`` the game being played (its wall is ``game // 4`` in
      duplicate play), ``seat`` its seat there and ``partial`` the
      :class:`~majiang.ArenaResult` of the games finished before it.

    Fields that do not apply are ``None``.
    """

    def __init__(
        self,
        message: str,
        *,
        seat: int | None = None,
        hand: int | None = None,
        record: Any = None,
        bot: int | None = None,
        name: str | None = None,
        game: int | None = None,
        partial: Any = None,
    ):
        super().__init__(message)
        self.seat = seat
        self.hand = hand
        self.record = record
        self.bot = bot
        self.name = name
        self.game = game
        self.partial = partial

    def __reduce__(self) -> tuple[Any, ...]:
        fields = {
            k: getattr(self, k)
            for k in ("seat", "hand", "record", "bot", "name", "game", "partial")
        }
        return _rebuild, (type(self), (str(self),), fields)


#: The arena's name for :class:`BotError` (one class serves both).
ArenaBotError = BotError


class IllegalBotActionError(BotError, IllegalActionError):
    """A bot returned an action that is not legal (also an ``IllegalActionError``)."""


class BotTimeoutError(BotError):
    """A bot took longer than its time limit for one decision (the chained cause is a
    ``TimeoutError``)."""


class ShardError(MajiangError, RuntimeError):
    """A shard of a distributed run (:mod:`majiang.distributed`) failed on its worker, or
    what its worker wrote could not be checked: the message names the shard, the node and
    the worker's error, and says what the run kept and how to continue it.

    ``shard``: the shard in words (``"hands 200,000 to 299,999"``); ``first`` and
    ``count``: its range, in ``unit`` (``"hands"``, ``"games"`` or ``"inputs"``);
    ``error``: the worker's error as text (its type and message); ``node``: the worker's
    address or host name when known; ``failed``: how many shards failed in the run
    (each is reported on stderr as it fails); ``partial``: what the run kept (a result
    reading the shards written, or None). The worker's own exception, when Ray returned
    it, is chained as ``__cause__``.
    """

    def __init__(
        self,
        message: str,
        *,
        shard: str | None = None,
        first: int | None = None,
        count: int | None = None,
        unit: str | None = None,
        error: str | None = None,
        node: str | None = None,
        failed: int = 1,
        partial: Any = None,
    ):
        super().__init__(message)
        self.shard = shard
        self.first = first
        self.count = count
        self.unit = unit
        self.error = error
        self.node = node
        self.failed = failed
        self.partial = partial

    def __reduce__(self) -> tuple[Any, ...]:
        fields = {
            k: getattr(self, k)
            for k in ("shard", "first", "count", "unit", "error", "node", "failed", "partial")
        }
        return _rebuild, (type(self), (str(self),), fields)


def _rebuild(cls: type[BaseException], args: tuple[Any, ...], fields: dict[str, Any]):
    return cls(*args, **fields)


# Shown as ``majiang.InvalidHandError`` in tracebacks and reprs: the name users import.
for _cls in (
    MajiangError,
    InvalidHandError,
    NotWinningError,
    IllegalActionError,
    RuleError,
    InvalidArgumentError,
    InvalidTypeError,
    UsageError,
    MissingExtraError,
    OutOfMemoryError,
    RecordError,
    ReplayMismatchError,
    LogError,
    DataError,
    ProtocolError,
    ResultFileError,
    BotError,
    IllegalBotActionError,
    BotTimeoutError,
    ShardError,
):
    _cls.__module__ = "majiang"
del _cls
