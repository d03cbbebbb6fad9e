"""The match loop: bots play a match of hands on the Rust state machine.

``Game(rules="gb", bots=[...], seed=None, hands=None).play()`` deals each hand, asks
each seat that must decide for an action (``bot.act(observation)``), applies it, and
records everything in a :class:`~majiang.record.MatchRecord`. The dealer and the winds
rotate as the rule set says (gb: every hand, counter-clockwise; classic: the dealer stays
on a win or a draw, otherwise the winner deals).

What was played is kept whatever happens: ``game.record`` grows by one
:class:`~majiang.record.HandRecord` as each hand ends, and with ``record_path`` the hand
is also appended to the record file (flushed and synced) before the next one is dealt. A
bot that raises, returns an illegal action or (with ``decision_timeout``) takes too long
ends the match with :class:`BotError`; Ctrl-C (``KeyboardInterrupt``) propagates as it
is. Either way ``game.record`` holds the finished hands and the file ends with a trailer
saying the match is unfinished.
"""

from __future__ import annotations

import math
import numbers
import os
import queue
import secrets
import threading
from collections.abc import Callable, Sequence
from typing import Any

from ._core import IllegalActionError, Match, RuleSet
from .bots import Bot, RandomBot
from .errors import (
    BotError,
    BotTimeoutError,
    IllegalBotActionError,
    InvalidArgumentError,
    InvalidTypeError,
)
from .record import HandRecord, MatchRecord, RecordWriter, check_record_path, hold_sigint
from .signing import key_bytes

__all__ = ["BotError", "BotTimeoutError", "Game", "IllegalBotActionError"]


class _Expired(TimeoutError):
    """The worker's deadline passed (not a ``TimeoutError`` the bot raised itself)."""


def _rules(rules: str | RuleSet) -> RuleSet:
    if isinstance(rules, RuleSet):
        return rules
    return RuleSet(rules)


class _Worker:
    """Runs bot decisions in one daemon thread so that the game can stop waiting.

    A Python thread cannot be killed: after a timeout the decision keeps running in the
    background until it returns (or the interpreter exits, the thread being a daemon),
    and the game does not use the worker again.
    """

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="majiang-bot", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            fn, arg, out = job
            try:
                out.put((True, fn(arg)))
            except BaseException as e:  # handed to the game's thread
                out.put((False, e))

    def call(self, fn: Callable[[Any], Any], arg: Any, timeout: float) -> Any:
        """``fn(arg)`` in the worker; raises ``_Expired`` after `timeout` seconds and
        re-raises what `fn` raised."""
        out: queue.SimpleQueue[tuple[bool, Any]] = queue.SimpleQueue()
        self._jobs.put((fn, arg, out))
        try:
            ok, value = out.get(timeout=timeout)
        except queue.Empty:
            raise _Expired(f"no decision within {timeout:g} s") from None
        if ok:
            return value
        raise value

    def stop(self) -> None:
        """Lets the thread end once it is idle."""
        self._jobs.put(None)


def _int_arg(name: str, value: Any) -> int:
    """An integer argument as an int: ints and integer types (numpy's) only, never a bool,
    a float or a string."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise InvalidTypeError(f"{name} must be an int, got {type(value).__name__}")
    return int(value)


class Game:
    """A match driven from Python.

    ``rules``: ``"gb"``, ``"classic"`` or a :class:`~majiang.RuleSet`. ``bots``: four
    objects with ``act(observation) -> action`` (seat order; default four
    :class:`~majiang.bots.RandomBot`). ``seed``: the match seed (random when None; the
    record keeps it). ``hands``: overrides the rule set's match length.
    ``record_path``: a file the record is written to as the match is played (checked
    now: its directory must exist and be writable); ``record_key``: sign it with this key
    (see :mod:`majiang.signing`). ``decision_timeout``: seconds a bot
    may take for one decision (None: no limit); bots then run in a worker thread, and a
    bot over time ends the match with :class:`BotTimeoutError` (the thread cannot be
    killed and finishes in the background).

    ``record`` is the :class:`~majiang.record.MatchRecord` of the current or last
    :meth:`play`, holding every finished hand (None before the first).
    """

    def __init__(
        self,
        rules: str | RuleSet = "gb",
        bots: Sequence[Bot] | None = None,
        seed: int | None = None,
        hands: int | None = None,
        *,
        record_path: str | os.PathLike[str] | None = None,
        record_key: bytes | str | None = None,
        decision_timeout: float | None = None,
    ) -> None:
        self.rules = _rules(rules)
        self.seed = secrets.randbits(63) if seed is None else _int_arg("seed", seed)
        if not 0 <= self.seed < 2**64:
            raise InvalidArgumentError(f"seed must be 0 <= seed < 2**64, got {seed}")
        if hands is not None:
            hands = _int_arg("hands", hands)
        if bots is None:
            bots = [RandomBot(seed=self.seed + i) for i in range(4)]
        bots = list(bots)
        if len(bots) != 4:
            raise InvalidArgumentError(f"a game needs four bots, got {len(bots)}")
        for i, b in enumerate(bots):
            if not callable(getattr(b, "act", None)):
                raise InvalidTypeError(
                    f"bot {i} ({type(b).__name__}) has no act(observation) method"
                )
        if decision_timeout is not None:
            if isinstance(decision_timeout, bool) or not isinstance(decision_timeout, numbers.Real):
                raise InvalidTypeError(
                    f"decision_timeout must be a number of seconds, got "
                    f"{type(decision_timeout).__name__}"
                )
            decision_timeout = float(decision_timeout)
            if not (decision_timeout > 0 and math.isfinite(decision_timeout)):
                raise InvalidArgumentError(
                    f"decision_timeout must be a positive number of seconds, got {decision_timeout}"
                )
        self.bots = bots
        self.hands = hands
        self.decision_timeout = decision_timeout
        self.record_path = None if record_path is None else check_record_path(record_path)
        if record_key is not None:
            key_bytes(record_key, "record_key")
            if record_path is None:
                raise InvalidArgumentError("record_key signs the record file: give record_path")
        self.record_key = record_key
        self.record: MatchRecord | None = None
        Match(self.rules, self.seed, hands)  # checks the arguments now

    def play(self) -> MatchRecord:
        """Plays every hand and returns the record (each call plays the match afresh
        from the seed; stateful bots carry their state over). Raises :class:`BotError`
        when a bot fails; ``self.record`` (and the file) keeps the finished hands."""
        m = Match(self.rules, self.seed, self.hands)
        bots = self.bots
        record = MatchRecord(
            rules=self.rules.name,
            options=self.rules.options(),
            seed=self.seed,
            n_hands=m.hands,
            players=[_bot_name(b) for b in bots],
        )
        self.record = record
        writer = (
            None
            if self.record_path is None
            else RecordWriter(self.record_path, record, key=self.record_key)
        )
        worker = None if self.decision_timeout is None else _Worker()
        try:
            while not m.is_over:
                index, seed, dealer, wind = m.hand_index, m.hand_seed, m.dealer, m.prevalent_wind
                before = m.scores
                r = m.start_hand()
                while True:
                    pending = r.pending
                    if not pending:
                        break
                    for s in pending:
                        action = self._decide(worker, s, r.observation(s), index)
                        try:
                            r.apply(s, action)
                        except IllegalActionError as e:
                            raise IllegalBotActionError(
                                f"{self._who(s)} returned an illegal action in hand "
                                f"{index + 1}: {e}",
                                seat=s,
                                hand=index,
                                record=record,
                            ) from e
                m.finish_hand(r)
                result = r.result
                assert result is not None  # the hand is over
                hand = HandRecord(
                    index=index,
                    seed=seed,
                    dealer=dealer,
                    prevalent_wind=wind,
                    scores_before=before,
                    result=result,
                    scores_after=m.scores,
                    events_json=r.events_json(),
                )
                # The record on the game and the file take the hand together.
                with hold_sigint():
                    record.hands.append(hand)
                    record.final_scores = m.scores
                    if writer is not None:
                        writer.add_hand(hand)
        except BaseException:
            if writer is not None:
                try:
                    writer.close()
                except OSError:
                    pass  # the error that ended the match is the one to report
            raise
        else:
            if writer is not None:
                writer.close()
        finally:
            if worker is not None:
                worker.stop()
        return record

    def _who(self, seat: int) -> str:
        return f"the bot at seat {seat} ({_bot_name(self.bots[seat])})"

    def _decide(self, worker: _Worker | None, seat: int, obs: Any, index: int) -> Any:
        act = self.bots[seat].act
        record = self.record
        assert record is not None
        try:
            if worker is None:
                return act(obs)
            assert self.decision_timeout is not None
            return worker.call(act, obs, self.decision_timeout)
        except _Expired as e:
            raise BotTimeoutError(
                f"{self._who(seat)} took longer than {self.decision_timeout:g} s to decide "
                f"in hand {index + 1}",
                seat=seat,
                hand=index,
                record=record,
            ) from e
        except Exception as e:
            raise BotError(
                f"{self._who(seat)} raised {type(e).__name__} in hand {index + 1}: {e}",
                seat=seat,
                hand=index,
                record=record,
            ) from e


def _bot_name(bot: Any) -> str:
    return type(bot).__name__
