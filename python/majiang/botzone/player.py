"""A built-in majiang bot answering Botzone requests: :class:`BotzonePlayer`.

Each decision is taken on a round rebuilt from the bot's own view
(:meth:`majiang.Round.from_view`), so the policy only ever picks an action the majiang
round finds legal; the answer is then checked against what the Botzone judge accepts
(see :mod:`majiang.botzone.table` for the cautions) and, where the judge would refuse
it, replaced by the safe answer: ``PASS`` to another player's tile, ``PLAY`` of the drawn
tile on the bot's own turn. Every decision is seeded from the bot's seed and the number of
requests so far, so the same input gives the same answers in every IO mode.
"""

from __future__ import annotations

from .. import _core
from ..bots.basic import FirstBot, RandomBot
from ..bots.efficiency import EfficiencyBot
from ..bots.expert import ExpertBot
from ..bots.strong import StrongBot
from ..errors import InvalidArgumentError
from .protocol import (
    Draw,
    Move,
    ProtocolError,
    Request,
    Response,
    format_response,
    parse_request,
    parse_response,
)
from .table import Table

__all__ = ["BOTS", "BotzonePlayer"]

#: The built-in bots ``majiang botzone`` can run.
BOTS = ("random", "first", "efficiency", "strong", "expert")

PASS = Response("PASS")


def _make_bot(name: str, seed: int, rules: _core.RuleSet):
    if name == "random":
        return RandomBot(seed)
    if name == "first":
        return FirstBot()
    if name == "efficiency":
        return EfficiencyBot(seed, rules=rules)
    if name == "strong":
        return StrongBot(seed, rules=rules, time_cap=False)
    if name == "expert":
        return ExpertBot(seed, rules=rules)
    raise InvalidArgumentError(f"unknown bot {name!r}; expected one of {', '.join(BOTS)}")


class BotzonePlayer:
    """A built-in bot (``random``, ``first``, ``efficiency``, ``strong`` or ``expert``) as a Botzone
    player. Feed it requests one at a time with :meth:`step` (keep-running mode) or the
    whole history with :meth:`replay` (one process per turn); both give the same answers.

    ``private_walls`` (default True): each player draws from its own wall, as the current
    judge does; False for a judge with one shared wall. ``flowers``: flowers are in play
    even when none is dealt (they are detected from the deal otherwise).
    """

    def __init__(
        self,
        bot: str = "strong",
        seed: int = 0,
        *,
        private_walls: bool = True,
        flowers: bool = False,
    ) -> None:
        if bot not in BOTS:
            raise InvalidArgumentError(f"unknown bot {bot!r}; expected one of {', '.join(BOTS)}")
        self.bot = bot
        self.seed = int(seed)
        self.table = Table(private_walls=private_walls, flowers_on=flowers)
        self.responses: list[Response] = []
        self.fallbacks = 0

    # ------------------------------------------------------------------ driving

    def step(self, line: str) -> str:
        """Takes the next request line; returns the response line."""
        request = parse_request(line)
        previous = self.responses[-1] if self.responses else None
        self.table.update(request, previous)
        answer = self._decide(request)
        self.responses.append(answer)
        return format_response(answer)

    def replay(self, requests: list[str], responses: list[str]) -> str:
        """The response to the last of ``requests``, the earlier ones answered with
        ``responses`` (one fewer): the input of a bot started afresh each turn."""
        if len(responses) != len(requests) - 1:
            raise ProtocolError(
                f"{len(requests)} requests need {len(requests) - 1} responses, got {len(responses)}"
            )
        for req, resp in zip(requests[:-1], responses, strict=True):
            previous = self.responses[-1] if self.responses else None
            self.table.update(parse_request(req), previous)
            self.responses.append(parse_response(resp))
        return self.step(requests[-1])

    # ------------------------------------------------------------------ decisions

    def _rules(self) -> _core.RuleSet:
        # Botzone's calculator drops the wait fans on a knitted-straight tile (B-5), so a
        # win offered on the rebuilt round also scores 8 on the judge.
        return _core.RuleSet("gb", flowers=self.table.has_flowers, wait_fans_on_knitted_tile=False)

    def _decision_seed(self) -> int:
        return (self.seed * 1_000_003 + len(self.responses)) % (1 << 63)

    def _decide(self, request: Request) -> Response:
        t = self.table
        if isinstance(request, Draw):
            return self._on_turn()
        if isinstance(request, Move) and request.player != t.me:
            if request.op in ("PLAY", "PENG", "CHI"):
                return self._on_discard(request.player, request.tiles[-1])
            if request.op == "BUGANG":
                return self._on_rob(request.player, request.tiles[0])
        return PASS

    def _ask(self, phase: str, turn: int, claim: int | None = None):
        """The rebuilt round, the bot, and its choice; None if the view cannot be rebuilt
        (the judge asks where majiang offers nothing, e.g. the last discard)."""
        seed = self._decision_seed()
        rules = self._rules()
        try:
            r = _core.Round.from_view(rules, self.table.view(phase, turn, claim), seed)
        except (_core.InvalidHandError, _core.RuleError, _core.IllegalActionError):
            return None
        bot = _make_bot(self.bot, seed, rules)
        return r, bot, bot.act(r.observation(self.table.me))

    def _fallback(self, response: Response) -> Response:
        self.fallbacks += 1
        return response

    def _on_turn(self) -> Response:
        t = self.table
        drawn = t.drawn if t.drawn is not None else t.hand[-1]
        safe = Response("PLAY", (drawn,))
        asked = self._ask("turn", t.me)
        if asked is None:
            return self._fallback(safe)
        _, _, a = asked
        if a.kind == "win":
            return Response("HU")
        if a.kind == "discard":
            return Response("PLAY", (a.tile,))
        if a.kind in ("concealed_kong", "added_kong") and t.may_kong():
            return Response("GANG" if a.kind == "concealed_kong" else "BUGANG", (a.tile,))
        return self._fallback(safe)

    def _on_discard(self, player: int, tile: int) -> Response:
        t = self.table
        asked = self._ask("claim", player, tile)
        if asked is None:
            return PASS
        r, bot, a = asked
        if a.kind == "pass":
            return PASS
        if a.kind == "win":
            return Response("HU")
        if t.next_wall_empty(player):
            return self._fallback(PASS)
        if a.kind == "kong":
            return Response("GANG")
        if a.kind not in ("pung", "chow"):
            return self._fallback(PASS)
        # The claim and the discard after it go in one answer.
        r.apply(t.me, a)
        while r.phase == "claim" and any(s != t.me for s in r.pending):
            for s in r.pending:
                if s != t.me:
                    r.apply(s, _core.Action("pass"))
        if r.phase != "turn" or r.turn != t.me:
            return self._fallback(PASS)
        d = bot.act(r.observation(t.me))
        if d.kind != "discard":
            return self._fallback(PASS)
        if a.kind == "pung":
            return Response("PENG", (d.tile,))
        return Response("CHI", (a.tile + 1, d.tile))

    def _on_rob(self, player: int, tile: int) -> Response:
        asked = self._ask("rob_kong", player, tile)
        if asked is None:
            return PASS
        _, _, a = asked
        if a.kind == "win":
            return Response("HU")
        return PASS
