"""``BotzoneBot``: an external Botzone bot program playing as a majiang bot.

The program is started once per hand and kept running (Botzone's keep-running mode with
simple IO): it first gets ``1`` and its first request, then one request per line, and
answers each with a line, followed by ``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<``. A program
that exits after an answer instead is restarted with the whole history, as Botzone does.

The requests are rebuilt from the seat's observations: player ids count from the dealer
(Botzone player 0 is the dealer and East), every move of the hand since the last decision
is replayed in order (draws, flowers, claims folded into ``PENG``/``CHI`` with the
discard that follows, kongs, discards), and the decision itself is the last request.
Answers map back to majiang actions: ``PLAY`` a discard, ``GANG t``/``BUGANG t`` the
kongs, ``HU`` a win, ``PENG``/``CHI``/``GANG`` a claim (the discard named in ``PENG``
and ``CHI`` is played when majiang asks for it), ``PASS`` a pass.

**Fallback.** An answer that is malformed, late (beyond ``time_limit``), or not among the
seat's legal actions is counted in :attr:`BotzoneBot.illegal` and replaced: on the bot's
own turn by discarding the drawn tile (or, after a claim, the first legal discard); on
another seat's tile by passing. A late program is restarted with the history.

Approximations: flowers a seat holds when the bot first sees the hand are reported as
dealt; a kong of a discarded tile is reported as claimed on the discard (a pung later
completed by an added kong between two decisions of this bot reads the same way).
"""

from __future__ import annotations

import os
import queue
import subprocess
import threading
import time
from collections.abc import Sequence

from .._core import Action, IllegalActionError, InvalidHandError, Observation
from ..errors import InvalidArgumentError
from .protocol import KEEP_RUNNING, ProtocolError, Response, parse_response, tile_name

__all__ = ["BotzoneBot"]


class _Program:
    """One running program with a reader thread (answers read with a time limit)."""

    def __init__(self, command: Sequence[str]) -> None:
        self.proc = subprocess.Popen(
            list(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def send(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text)
        self.proc.stdin.flush()

    def answer(self, deadline: float) -> tuple[str | None, bool]:
        """The answer line and whether the program keeps running; None when late or
        gone."""
        first: str | None = None
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                return None, False
            if line is None:
                return first, False
            if line == KEEP_RUNNING:
                return first, True
            if first is None:
                first = line

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


class BotzoneBot:
    """An external Botzone bot program as a majiang bot: ``act(observation)``.

    ``command``: the program and its arguments (e.g. ``["./mybot"]`` or
    ``["python", "bot.py"]``). ``time_limit``: seconds allowed per answer (Botzone gives
    1 s per turn for long-running bots; default 5). ``name``: how results name the bot
    (default ``botzone:`` and the command's last word that is not an option). See the
    module documentation for the request translation and the fallback; :attr:`illegal`
    counts the replaced answers and :attr:`answers` every answer received.

    A new hand is noticed from the observations; :meth:`begin_hand` (which
    :func:`majiang.arena` calls before each game) says so outright.
    """

    def __init__(
        self, command: Sequence[str], *, time_limit: float = 5.0, name: str | None = None
    ) -> None:
        if isinstance(command, str) or not command:
            raise InvalidArgumentError(
                "command must name a program: a list of the program and its arguments"
            )
        self.command = list(command)
        words = [w for w in self.command[1:] if not w.startswith("-")] or self.command
        self.name = name if name else "botzone:" + os.path.basename(words[-1])
        self.time_limit = float(time_limit)
        self.illegal = 0
        self.answers = 0
        self._program: _Program | None = None
        self._reset()

    # ------------------------------------------------------------------ hand state

    def _reset(self) -> None:
        if self._program is not None:
            self._program.close()
        self._program = None
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
        """Stops the program."""
        if self._program is not None:
            self._program.close()
            self._program = None

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

    # ------------------------------------------------------------------ talking

    def _ask(self, request: str) -> str | None:
        """Sends one request; the answer (None when late or gone)."""
        self._requests.append(request)
        deadline = time.monotonic() + self.time_limit
        if self._program is None:
            self._program = _Program(self.command)
            lines = [str(len(self._requests))]
            for i, req in enumerate(self._requests):
                lines.append(req)
                if i < len(self._responses):
                    lines.append(self._responses[i])
            self._program.send("\n".join(lines) + "\n")
        else:
            self._program.send(request + "\n")
        text, keeps = self._program.answer(deadline)
        if not keeps:
            self._program.close()
            self._program = None
        self._responses.append(text if text is not None else "PASS")
        if text is not None:
            self.answers += 1
        return text

    def _tell(self, request: str) -> None:
        """A request that only informs: the answer must be PASS."""
        text = self._ask(request)
        if text is None or text.strip() != "PASS":
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
        return self._checked(action, legal, obs)

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
