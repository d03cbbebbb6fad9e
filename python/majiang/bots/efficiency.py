"""``EfficiencyBot``: the built-in efficiency policy (written once, in Rust) for Python play.

The same Rust code plays every seat of ``majiang.simulate(..., bots="efficiency")``. It
wins whenever the round offers a win; discards by the value of its best fan plan (in gb
a win needs 8 fan, so it keeps flushes, all pungs, straights, mixed triple chows, seven
pairs, knitted forms and honor pungs alive rather than the shortest cheap hand) and, among
discards of about equal value, by the unseen copies of the tiles that improve the hand;
claims a chow, pung or kong only when the hand after it is worth more.
"""

from __future__ import annotations

from .._core import Action, Observation, Policy, RuleSet

__all__ = ["EfficiencyBot"]


class EfficiencyBot:
    """The efficiency policy as a bot: ``act(observation)`` returns one of
    ``observation.legal_actions``.

    ``seed`` seeds the tie-breaks (None is 0, so play is reproducible by default). The bot
    plays the rules each observation was dealt under (``observation.rules``: the minimum
    fan it plans for, the 宝 of huainan); ``rules`` (a name or a
    :class:`~majiang.RuleSet`) restricts it to those rules, and an observation dealt under
    others then raises :class:`~majiang.RuleError`.
    """

    def __init__(self, seed: int | None = None, rules: str | RuleSet | None = None) -> None:
        self._policy = Policy("efficiency", rules=rules, seed=0 if seed is None else seed)

    def begin_hand(self, seed: int) -> None:
        """Reseeds the policy for a new hand (:func:`majiang.arena` calls it before each
        game with the seed the built-in bot would get, so the bot plays that game as the
        built-in one does)."""
        self._policy.reseed(seed)

    def act(self, observation: Observation) -> Action:
        """The policy's choice among ``observation.legal_actions``.

        ``observation`` must come from :meth:`majiang.Round.observation` (the policy reads
        the round's own view of the seat, the 宝 included; anything else is a
        ``TypeError``); one without legal actions raises ``IllegalActionError``.
        """
        return self._policy.choose(observation)

    def __repr__(self) -> str:
        return "EfficiencyBot()"
