"""``BotzoneBot``: an external Botzone bot program playing as a majiang bot.

The program is kept running where it can (Botzone's keep-running mode with simple IO):
it is started with the whole history (the turn count, then the requests and its
responses), answers the last request with a line, then prints
``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<`` and gets one request per line from then on. A
program that exits after an answer instead is started again with the whole history at
its next decision, as Botzone does. While the program is not running, the requests that
only inform it (a draw by another player, a discard it cannot claim) are not sent one by
one: they reach it in the history of its next start, answered ``PASS`` (the only answer
the judge accepts to them).

The requests are rebuilt from the seat's observations: player ids count from the dealer
(Botzone player 0 is the dealer and East), every move of the hand since the last decision
is replayed in order (draws, flowers, claims folded into ``PENG``/``CHI`` with the
discard that follows, kongs, discards), and the decision itself is the last request.
Answers map back to majiang actions: ``PLAY`` a discard, ``GANG t``/``BUGANG t`` the
kongs, ``HU`` a win, ``PENG``/``CHI``/``GANG`` a claim (the discard named in ``PENG``
and ``CHI`` is played when majiang asks for it), ``PASS`` a pass.

**Containment.** The program is someone else's code, run on your machine:

- it runs in a process group of its own (a new session), and the whole group (a wrapper
  script's children, anything it forked) is killed at a restart, a failure and
  :meth:`BotzoneBot.close` (and when the bot is garbage-collected or the interpreter
  exits); a process that starts a session of its own leaves the group, so run programs
  you do not trust in a container as well;
- one deadline per decision: every request of one ``act()`` (the moves it is told of
  and the decision itself) shares ``time_limit`` seconds, whatever the program prints;
- its output is read without blocking, in bounded pieces: a line longer than
  :data:`MAX_LINE_BYTES` or more than :data:`MAX_OUTPUT_BYTES` printed in one decision
  is a failure; its input is written without blocking (a program that does not read
  cannot stall the game) and its stderr is discarded.

**Failures and fallback.** A program that does not answer in time, prints too much or
too long a line, or exits without answering, is killed (its whole group), the failure is
recorded in :attr:`BotzoneBot.failures` with its reason, and the decision is taken by
the fallback; the program is started again with the history at its next decision. After
``max_failures`` failures in one hand the seat stops asking it and plays the fallback
for the rest of the hand (recorded in :attr:`BotzoneBot.gave_up`); the next hand tries
the program again.

**Fallback.** An answer that is malformed, missing (a failure above), or not among the
seat's legal actions is counted in :attr:`BotzoneBot.illegal` and replaced: on the bot's
own turn by discarding the drawn tile (or, after a claim, the first legal discard); on
another seat's tile by passing. The history the program gets at a restart gives the
fallback's move as its response.

Approximations: flowers a seat holds when the bot first sees the hand are reported as
dealt; a kong of a discarded tile is reported as claimed on the discard (a pung later
completed by an added kong between two decisions of this bot reads the same way).
"""

from __future__ import annotations

import contextlib
import math
import numbers
import os
import selectors
import shutil
import signal
import subprocess
import time
import weakref
from collections.abc import Sequence

from .._core import Action, IllegalActionError, InvalidHandError, Observation
from ..errors import InvalidArgumentError, InvalidTypeError
from .protocol import KEEP_RUNNING, ProtocolError, Response, parse_response, tile_name

__all__ = ["MAX_FAILURES", "MAX_LINE_BYTES", "MAX_OUTPUT_BYTES", "MAX_TIME_LIMIT", "BotzoneBot"]

#: The longest line a program may print (bytes, without its line break).
MAX_LINE_BYTES = 1 << 16
#: The most a program may print (bytes) while the bot takes one decision.
MAX_OUTPUT_BYTES = 1 << 20
#: The default number of failures in one hand after which the seat stops asking the
#: program until the next hand.
MAX_FAILURES = 3
#: The longest ``time_limit`` (seconds).
MAX_TIME_LIMIT = 3600.0

_MARKER = KEEP_RUNNING.encode("ascii")
#: What ``BotzoneBot._exchange`` returns for a request held for the history.
_HELD = ("PASS", False)
_CHUNK = 1 << 16


class _Failure(Exception):
    """The program failed the request (the message says how); it has been killed."""


class _Gone(Exception):
    """The program had exited before it read the request (a restart is due), or exited
    without an answer after it had answered earlier ones: a program that ends after each
    answer may be gone before the next request arrives."""


def _kill_group(proc: subprocess.Popen) -> None:
    """Kills the program's process group, then reaps the program. The group is killed
    before the program is reaped, so its id cannot have been reused by then."""
    if proc.returncode is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=10)
    for f in (proc.stdin, proc.stdout):
        if f is not None:
            with contextlib.suppress(OSError):
                f.close()


class _Program:
    """One running program, in a session (and process group) of its own, with
    non-blocking pipes."""

    def __init__(self, command: Sequence[str]) -> None:
        try:
            self.proc = subprocess.Popen(
                list(command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                bufsize=0,
                close_fds=True,
                start_new_session=True,
            )
        except OSError as e:
            raise _Failure(f"cannot be started ({e.strerror or e})") from None
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._in = self.proc.stdin.fileno()
        self._out = self.proc.stdout.fileno()
        os.set_blocking(self._in, False)
        os.set_blocking(self._out, False)
        self._partial = bytearray()
        #: Bytes printed since the bot's decision began (the bot resets it).
        self.printed = 0
        # Killed at exit too, if the bot is never closed.
        self._finalizer = weakref.finalize(self, _kill_group, self.proc)

    def close(self) -> None:
        """Kills the program's whole group (idempotent)."""
        self._finalizer()

    def status(self) -> str:
        """How the program ended, for a message (call after :meth:`close`)."""
        rc = self.proc.returncode
        if rc is None:
            return "still running"
        if rc < 0:
            with contextlib.suppress(ValueError):
                return f"killed by {signal.Signals(-rc).name}"
            return f"killed by signal {-rc}"
        return f"exit status {rc}"

    def _take(self, chunk: bytes) -> list[bytes]:
        """Counts ``chunk`` against the budget and returns the complete lines in it."""
        self.printed += len(chunk)
        if self.printed > MAX_OUTPUT_BYTES:
            raise _Failure(f"printed more than {MAX_OUTPUT_BYTES:,} bytes in one decision")
        self._partial += chunk
        *lines, rest = self._partial.split(b"\n")
        if len(rest) > MAX_LINE_BYTES or any(len(x) > MAX_LINE_BYTES + 1 for x in lines):
            raise _Failure(f"printed a line longer than {MAX_LINE_BYTES:,} bytes")
        self._partial = bytearray(rest)
        return [bytes(x.rstrip(b"\r")) for x in lines]

    def drain(self) -> bool:
        """Discards what the program printed after its last answer (counted against the
        budget); False when its output has ended."""
        while True:
            try:
                chunk = os.read(self._out, _CHUNK)
            except BlockingIOError:
                self._partial.clear()
                return True
            if not chunk:
                return False
            self._take(chunk)

    def exchange(self, data: bytes, deadline: float) -> tuple[str, bool]:
        """Writes ``data`` and reads the answer: its first line, and whether the program
        keeps running (it printed the marker) rather than exiting. Raises
        :class:`_Failure` (late, too much output) or :class:`_Gone` (its output ended
        without an answer)."""
        if not self.drain():
            raise _Gone
        pending = memoryview(data)
        answer: bytes | None = None
        ended = False
        written = False
        with selectors.DefaultSelector() as sel:
            sel.register(self._out, selectors.EVENT_READ)
            if pending:
                sel.register(self._in, selectors.EVENT_WRITE)
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise _Failure("did not answer in time")
                for key, _ in sel.select(left):
                    if key.fd == self._in:
                        try:
                            n = os.write(self._in, pending[:_CHUNK])
                        except BlockingIOError:
                            continue
                        except (BrokenPipeError, ConnectionResetError):
                            sel.unregister(self._in)
                            if not written:
                                raise _Gone from None
                            continue
                        written = True
                        pending = pending[n:]
                        if not pending:
                            sel.unregister(self._in)
                        continue
                    try:
                        chunk = os.read(self._out, _CHUNK)
                    except BlockingIOError:
                        continue
                    if not chunk:
                        ended = True
                        break
                    for line in self._take(chunk):
                        if line == _MARKER:
                            text = (answer or b"").decode("utf-8", "replace")
                            return text, True
                        if answer is None:
                            answer = line
                if ended:
                    if answer is None:
                        raise _Gone
                    return answer.decode("utf-8", "replace"), False


def _time_limit(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InvalidTypeError(
            f"time_limit must be a number of seconds, got {type(value).__name__}"
        )
    t = float(value)
    if not (math.isfinite(t) and 0 < t <= MAX_TIME_LIMIT):
        raise InvalidArgumentError(
            f"time_limit must be a number of seconds, 0 < time_limit <= {MAX_TIME_LIMIT:g}, "
            f"got {value!r}"
        )
    return t


class BotzoneBot:
    """An external Botzone bot program as a majiang bot: ``act(observation)``.

    ``command``: the program and its arguments (e.g. ``["./mybot"]`` or
    ``["python", "bot.py"]``). ``time_limit``: seconds allowed per decision, every request
    of one ``act()`` included (a number, 0 < time_limit <= 3600; Botzone gives 1 s per
    turn for long-running bots; default 5). ``max_failures``: failures of the program in
    one hand after which its seat plays the fallback for the rest of the hand (default
    3). ``name``: how results name the bot (default ``botzone:`` and the command's last
    word that is not an option). See the module documentation for the containment, the
    request translation and the fallback.

    :attr:`illegal` counts the replaced answers, :attr:`answers` every answer received,
    :attr:`starts` the times the program was started; :attr:`failures` lists every
    failure (``"hand 2: did not answer in time (...)"``) and :attr:`gave_up` every hand in
    which the seat stopped asking the program, with the reason.

    A new hand is noticed from the observations; :meth:`begin_hand` (which
    :func:`majiang.arena` calls before each game) says so outright. Use the bot as a
    context manager, or call :meth:`close`, to stop the program.
    """

    def __init__(
        self,
        command: Sequence[str],
        *,
        time_limit: float = 5.0,
        max_failures: int = MAX_FAILURES,
        name: str | None = None,
    ) -> None:
        if isinstance(command, (str, bytes)) or not isinstance(command, Sequence) or not command:
            raise InvalidArgumentError(
                "command must name a program: a list of the program and its arguments"
            )
        if not all(isinstance(w, str) for w in command):
            raise InvalidTypeError("command must be a list of str (the program and its arguments)")
        self.time_limit = _time_limit(time_limit)
        if isinstance(max_failures, bool) or not isinstance(max_failures, int):
            raise InvalidTypeError(
                f"max_failures must be an int, got {type(max_failures).__name__}"
            )
        if not 1 <= max_failures <= 1000:
            raise InvalidArgumentError(f"max_failures must be 1-1000, got {max_failures}")
        self.max_failures = max_failures
        self.command = list(command)
        program = self.command[0]
        found = (
            os.path.isfile(program) and os.access(program, os.X_OK)
            if os.sep in program
            else shutil.which(program) is not None
        )
        if not found:
            raise InvalidArgumentError(f"command: no program {program!r} to run")
        words = [w for w in self.command[1:] if not w.startswith("-")] or self.command
        self.name = name if name else "botzone:" + os.path.basename(words[-1])
        self.illegal = 0
        self.answers = 0
        self.starts = 0
        self.failures: list[str] = []
        self.gave_up: list[str] = []
        self._program: _Program | None = None
        self._hand = -1
        self._reset()

    # ------------------------------------------------------------------ hand state

    def _reset(self) -> None:
        if self._program is not None:
            self._program.close()
        self._program = None
        self._hand += 1
        self._hand_failures = 0
        self._given_up: str | None = None
        self._deadline = 0.0
        self._failed = False
        self._requests: list[str] = []
        self._responses: list[str] = []
        self._started = False
        self._n_discards = 0
        self._melds: list[list[tuple[str, int]]] = [[], [], [], []]
        self._hidden = [0, 0, 0, 0]
        self._flowers = [0, 0, 0, 0]
        self._pending_discard: int | None = None
        self._my_kong: tuple[str, int] | None = None
        self._wall = 1 << 30

    def begin_hand(self, seed: int | None = None) -> None:
        """Starts a new hand: the running program is stopped and the next decision starts
        it afresh (``seed`` is not used; the program plays as it likes)."""
        self._reset()

    def close(self) -> None:
        """Stops the program (its whole process group)."""
        if self._program is not None:
            self._program.close()
            self._program = None

    def __enter__(self) -> BotzoneBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()

    # ------------------------------------------------------------------ talking

    def _fail(self, reason: str) -> None:
        """Records a failure of the program in this decision (it is already killed)."""
        self._failed = True
        self._hand_failures += 1
        self.failures.append(f"hand {self._hand}: {reason}")
        if self._hand_failures >= self.max_failures and self._given_up is None:
            self._given_up = (
                f"hand {self._hand}: the seat played the fallback for the rest of the hand "
                f"after {self._hand_failures} failures (the last: {reason})"
            )
            self.gave_up.append(self._given_up)

    def _history(self) -> bytes:
        """The full input of a fresh start: the turn count, then the requests alternating
        with the responses, ending with the last request."""
        lines = [str(len(self._requests))]
        for i, req in enumerate(self._requests):
            lines.append(req)
            if i < len(self._requests) - 1:
                lines.append(self._responses[i])
        return ("\n".join(lines) + "\n").encode("utf-8")

    def _exchange(self, fresh: bool, inform: bool) -> tuple[str, bool] | None:
        """Sends the last request (the whole history to a fresh program); the answer, or
        None after a failure (recorded). A request that only informs, found the program
        gone, is held for the history of its next start: ``("PASS", False)``."""
        limit = f"{self.time_limit:g} s"
        for attempt in range(2):
            if self._program is None:
                self.starts += 1
                try:
                    self._program = _Program(self.command)
                except _Failure as e:
                    self._fail(str(e))
                    return None
                fresh = True
            prog = self._program
            data = self._history() if fresh else (self._requests[-1] + "\n").encode("utf-8")
            try:
                return prog.exchange(data, self._deadline)
            except _Gone:
                # It had exited before it read the request: started again with the
                # history, once (a program that dies at once is a failure), or, for a
                # request that only informs, at its next decision.
                prog.close()
                self._program = None
                if fresh or attempt:
                    self._fail(f"exited without answering ({prog.status()})")
                    return None
                if inform:
                    return _HELD
            except _Failure as e:
                prog.close()
                self._program = None
                why = str(e)
                if why == "did not answer in time":
                    why += f" (time_limit {limit} for the decision)"
                self._fail(why)
                return None
        return None

    def _ask(self, request: str, inform: bool = False) -> str | None:
        """Sends one request; the answer (None when the program failed or is not asked).
        A request that only informs is held for the history while the program is not
        running."""
        self._requests.append(request)
        self._responses.append("PASS")
        if self._given_up is not None or self._failed:
            return None
        if inform and self._program is None:
            return "PASS"
        got = self._exchange(fresh=self._program is None, inform=inform)
        if got is None:
            return None
        if got is _HELD:
            return "PASS"
        text, keeps = got
        if not keeps and self._program is not None:
            self._program.close()
            self._program = None
        self._responses[-1] = text
        self.answers += 1
        return text

    def _tell(self, request: str) -> None:
        """A request that only informs: the answer must be PASS."""
        text = self._ask(request, inform=True)
        if text is not None and text.strip() != "PASS":
            self.illegal += 1

    # ------------------------------------------------------------------ translation

    def _pid(self, obs: Observation, seat: int) -> int:
        return (seat - obs.dealer) % 4

    def _start(self, obs: Observation) -> None:
        me = self._pid(obs, obs.seat)
        self._tell(f"0 {me} {obs.prevalent_wind}")
        hand = list(obs.hand)
        if obs.phase == "turn" and obs.turn == obs.seat and obs.drawn is not None:
            hand.remove(obs.drawn)
        flowers = [obs.flowers[(obs.dealer + p) % 4] for p in range(4)]
        self._flowers = [len(obs.flowers[s]) for s in range(4)]
        parts = ["1", *(str(len(f)) for f in flowers)]
        parts += [tile_name(t) for t in hand[:13]]
        parts += [tile_name(t) for f in flowers for t in f]
        self._tell(" ".join(parts))
        self._started = True

    def _new_melds(self, obs: Observation, seat: int) -> list[tuple[str, int]]:
        """Melds of ``seat`` not yet reported (pung→kong upgrades as ("added", tile))."""
        old = list(self._melds[seat])
        out = []
        for m in obs.melds[seat]:
            key = (m.kind, m.tile)
            if key in old:
                old.remove(key)
            elif m.kind == "kong" and ("pung", m.tile) in old:
                old.remove(("pung", m.tile))
                out.append(("added", m.tile))
            else:
                out.append(key)
        return out

    def _flowers_of(self, obs: Observation, seat: int) -> list[str]:
        new = obs.flowers[seat][self._flowers[seat] :]
        self._flowers[seat] = len(obs.flowers[seat])
        p = self._pid(obs, seat)
        return [f"3 {p} BUHUA {tile_name(f)}" for f in new]

    def _turn_kongs(self, obs: Observation, seat: int, melds: list[tuple[str, int]]) -> None:
        """Reports the own-turn kongs of another seat among ``melds`` (with their draws)."""
        p = self._pid(obs, seat)
        for kind, t in melds:
            if kind == "added":
                self._tell(f"3 {p} BUGANG {tile_name(t)}")
                self._replace(("pung", t), ("kong", t), seat)
            elif kind == "concealed_kong":
                self._tell(f"3 {p} GANG")
                self._melds[seat].append((kind, t))
            else:
                continue
            self._tell(f"3 {p} DRAW")
        while self._hidden[seat] < obs.hidden_kongs[seat]:
            self._hidden[seat] += 1
            self._tell(f"3 {p} GANG")
            self._tell(f"3 {p} DRAW")

    def _replace(self, old: tuple[str, int], new: tuple[str, int], seat: int) -> None:
        if old in self._melds[seat]:
            self._melds[seat].remove(old)
        self._melds[seat].append(new)

    def _sync(self, obs: Observation) -> str | None:
        """Reports every move since the last decision; returns the decision request, which
        is not yet sent (None at a turn after this bot's own claim)."""
        log = obs.discard_log
        me = obs.seat
        decision: str | None = None
        for i in range(self._n_discards, len(log)):
            seat, t, _, _ = log[i]
            p = self._pid(obs, seat)
            prev = log[i - 1] if i > 0 else None
            melds = self._new_melds(obs, seat)
            claim = None
            if prev is not None and prev[2]:
                claim = next(
                    (
                        m
                        for m in melds
                        if m[0] in ("chow", "pung", "kong") and self._holds(m, prev[1])
                    ),
                    None,
                )
            if claim is not None:
                melds.remove(claim)
                self._melds[seat].append(claim)
            if seat == me:
                # This bot's own moves: the draws were its decisions already.
                if claim is not None and claim[0] == "kong":
                    self._tell(f"3 {p} GANG")
                req = self._discard_request(p, claim, t)
                self._tell(req)
                continue
            if claim is None:
                for r in self._flowers_of(obs, seat):
                    self._tell(r)
                self._tell(f"3 {p} DRAW")
            elif claim[0] == "kong":
                self._tell(f"3 {p} GANG")
                self._tell(f"3 {p} DRAW")
            self._turn_kongs(obs, seat, melds)
            req = self._discard_request(p, claim, t)
            if i == len(log) - 1 and obs.phase == "claim":
                decision = req
            else:
                self._tell(req)
        self._n_discards = len(log)
        if obs.phase == "rob_kong" and obs.claim is not None:
            seat, t = obs.claim
            p = self._pid(obs, seat)
            for r in self._flowers_of(obs, seat):
                self._tell(r)
            # An added kong is only made on a turn that began with a draw.
            self._tell(f"3 {p} DRAW")
            self._turn_kongs(obs, seat, self._new_melds(obs, seat))
            self._replace(("pung", t), ("kong", t), seat)
            decision = f"3 {p} BUGANG {tile_name(t)}"
        elif obs.phase == "turn" and obs.turn == me and obs.drawn is not None:
            p = self._pid(obs, me)
            if self._my_kong is not None:
                kind, t = self._my_kong
                added = kind == "added"
                self._tell(f"3 {p} BUGANG {tile_name(t)}" if added else f"3 {p} GANG")
                self._my_kong = None
            for r in self._flowers_of(obs, me):
                self._tell(r)
            for m in self._new_melds(obs, me):
                self._melds[me].append(m if m[0] != "added" else ("kong", m[1]))
                if m[0] == "added":
                    self._melds[me].remove(("pung", m[1]))
            decision = f"2 {tile_name(obs.drawn)}"
        return decision

    @staticmethod
    def _holds(meld: tuple[str, int], t: int) -> bool:
        kind, low = meld
        return low <= t <= low + 2 if kind == "chow" else low == t

    @staticmethod
    def _discard_request(p: int, claim: tuple[str, int] | None, t: int) -> str:
        if claim is None or claim[0] == "kong":
            return f"3 {p} PLAY {tile_name(t)}"
        if claim[0] == "pung":
            return f"3 {p} PENG {tile_name(t)}"
        return f"3 {p} CHI {tile_name(claim[1] + 1)} {tile_name(t)}"

    # ------------------------------------------------------------------ acting

    def act(self, observation: Observation) -> Action:
        """The program's answer as one of ``observation.legal_actions`` (or the fallback)."""
        obs = observation
        legal = obs.legal_actions
        if not legal:
            raise ProtocolError(f"seat {obs.seat} has nothing to decide")
        if self._started and (
            len(obs.discard_log) < self._n_discards or obs.wall_remaining > self._wall
        ):
            self._reset()
        self._wall = obs.wall_remaining
        # One deadline for everything this decision sends, and one output budget.
        self._deadline = time.monotonic() + self.time_limit
        self._failed = False
        if self._program is not None:
            self._program.printed = 0
        if not self._started:
            self._start(obs)
        decision = self._sync(obs)
        if decision is None:
            # A turn after this bot's claim: the discard it named with PENG/CHI.
            t, self._pending_discard = self._pending_discard, None
            a = Action("discard", t) if t is not None else None
            return self._checked(a, legal, obs)
        self._pending_discard = None
        text = self._ask(decision)
        try:
            answer = parse_response(text) if text is not None else None
        except ProtocolError:
            answer = None
        try:
            action = self._action(answer, obs)
        except (IllegalActionError, InvalidHandError):
            action = None  # a tile no action can name (a flower)
        before = self.illegal
        played = self._checked(action, legal, obs)
        if self.illegal > before:
            # The history a restarted program gets says what was played.
            t = played.tile
            if played.kind == "discard" and t is not None:
                self._responses[-1] = f"PLAY {tile_name(t)}"
            else:
                self._responses[-1] = "PASS"
        return played

    def _action(self, answer: Response | None, obs: Observation) -> Action | None:
        if answer is None:
            return None
        op, tiles = answer.op, answer.tiles
        own = obs.phase == "turn"
        if op == "HU":
            return Action("win")
        if op == "PASS":
            return None if own else Action("pass")
        if own:
            if op == "PLAY":
                return Action("discard", tiles[0])
            if op == "GANG" and tiles:
                self._my_kong = ("concealed_kong", tiles[0])
                return Action("concealed_kong", tiles[0])
            if op == "BUGANG":
                self._my_kong = ("added", tiles[0])
                return Action("added_kong", tiles[0])
            return None
        if obs.phase != "claim" or obs.claim is None:
            return None
        d = obs.claim[1]
        if op == "GANG" and not tiles:
            self._my_kong = ("kong", d)
            return Action("kong", d)
        if op == "PENG":
            self._pending_discard = tiles[0]
            return Action("pung", d)
        if op == "CHI":
            self._pending_discard = tiles[1]
            return Action("chow", tiles[0] - 1)
        return None

    def _checked(self, action: Action | None, legal: list[Action], obs: Observation) -> Action:
        if action is not None and action in legal:
            if action.kind not in ("concealed_kong", "added_kong"):
                self._my_kong = None
            return action
        self.illegal += 1
        self._my_kong = None
        self._pending_discard = None
        if obs.phase == "turn":
            if obs.drawn is not None and Action("discard", obs.drawn) in legal:
                return Action("discard", obs.drawn)
            return next(a for a in legal if a.kind == "discard")
        return Action("pass")

    def __repr__(self) -> str:
        return f"BotzoneBot({self.command!r})"
