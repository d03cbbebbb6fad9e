"""The match loop: bots play a match of hands on the Rust state machine.

``Game(rules="gb", bots=[...], seed=None, hands=None).play()`` deals each hand, asks
each seat that must decide for an action (``bot.act(observation)``), applies it, and
records everything in a :class:`~majiang.record.MatchRecord`. The dealer and the winds
rotate as the rule set says (gb: every hand, counter-clockwise; classic: the dealer stays
on a win or a draw, otherwise the winner deals).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from ._core import Match, RuleSet
from .bots import Bot, RandomBot
from .record import HandRecord, MatchRecord

__all__ = ["Game"]


def _rules(rules: str | RuleSet) -> RuleSet:
    if isinstance(rules, RuleSet):
        return rules
    return RuleSet(rules)


class Game:
    """A match driven from Python.

    ``rules``: ``"gb"``, ``"classic"`` or a :class:`~majiang.RuleSet`. ``bots``: four
    objects with ``act(observation) -> action`` (seat order; default four
    :class:`~majiang.bots.RandomBot`). ``seed``: the match seed (random when None; the
    record keeps it). ``hands``: overrides the rule set's match length.
    """

    def __init__(
        self,
        rules: str | RuleSet = "gb",
        bots: Sequence[Bot] | None = None,
        seed: int | None = None,
        hands: int | None = None,
    ) -> None:
        self.rules = _rules(rules)
        self.seed = secrets.randbits(63) if seed is None else int(seed)
        if not 0 <= self.seed < 2**64:
            raise ValueError(f"seed must be 0 <= seed < 2**64, got {seed}")
        if bots is None:
            bots = [RandomBot(seed=self.seed + i) for i in range(4)]
        bots = list(bots)
        if len(bots) != 4:
            raise ValueError(f"a game needs four bots, got {len(bots)}")
        for i, b in enumerate(bots):
            if not callable(getattr(b, "act", None)):
                raise TypeError(f"bot {i} ({type(b).__name__}) has no act(observation) method")
        self.bots = bots
        self.hands = hands
        Match(self.rules, self.seed, hands)  # checks the arguments now

    def play(self) -> MatchRecord:
        """Plays every hand and returns the record (each call plays the match afresh
        from the seed; stateful bots carry their state over)."""
        m = Match(self.rules, self.seed, self.hands)
        bots = self.bots
        record = MatchRecord(
            rules=self.rules.name,
            options=self.rules.options(),
            seed=self.seed,
            n_hands=m.hands,
            players=[_bot_name(b) for b in bots],
        )
        while not m.is_over:
            index, seed, dealer, wind = m.hand_index, m.hand_seed, m.dealer, m.prevalent_wind
            before = m.scores
            r = m.start_hand()
            while True:
                pending = r.pending
                if not pending:
                    break
                for s in pending:
                    r.apply(s, bots[s].act(r.observation(s)))
            m.finish_hand(r)
            record.hands.append(
                HandRecord(
                    index=index,
                    seed=seed,
                    dealer=dealer,
                    prevalent_wind=wind,
                    scores_before=before,
                    result=r.result,
                    scores_after=m.scores,
                    events_json=r.events_json(),
                )
            )
        record.final_scores = m.scores
        return record


def _bot_name(bot: Any) -> str:
    return type(bot).__name__
