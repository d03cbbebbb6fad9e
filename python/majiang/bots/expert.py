"""``ExpertBot``: the strongest built-in bot, the strong policy valuing hands by points
(in huainan: the wild-aware Huainan policy).

It plays like :class:`~majiang.bots.StrongBot` (fan plans, defense, a lookahead to the
ready hands that reach the minimum fan) except that the lookahead values the hands
close to ready by the expected points of winning rather than the chance: each ready
hand's chance of winning times the mean points of its scoring waits, so a flush wait
with a few live copies can beat a cheap wait with more. See docs/bots.md,
"ExpertBot", for its measured strength.
"""

from __future__ import annotations

from .._core import Action, Observation, Policy, RuleSet
from .explain import Explanation

__all__ = ["ExpertBot"]


class ExpertBot:
    """The expert policy as a bot: ``act(observation)`` returns one of
    ``observation.legal_actions``.

    ``seed`` seeds its tie-breaks (None is 0; the same seed and observations give the
    same actions). It plays the rules each observation was dealt under
    (``observation.rules``): the fan plans in gb and classic, the wild-aware Huainan
    policy in huainan (see ``docs/huainan_bot.md``). ``rules`` (a name or a
    :class:`~majiang.RuleSet`) restricts it to those rules, and an observation dealt
    under others then raises :class:`~majiang.RuleError`.
    """

    def __init__(self, seed: int | None = None, rules: str | RuleSet | None = None) -> None:
        self.seed = 0 if seed is None else int(seed)
        self._policy = Policy("expert", rules=rules, seed=self.seed)

    def begin_hand(self, seed: int) -> None:
        """Reseeds the policy for a new hand (:func:`majiang.arena` calls it before each
        game with the seed the built-in bot would get, so the bot plays that game as the
        built-in one does)."""
        self._policy.reseed(seed)

    def act(self, observation: Observation) -> Action:
        """The policy's choice among ``observation.legal_actions``.

        ``observation`` must come from :meth:`majiang.Round.observation` (anything else is
        a ``TypeError``); one without legal actions raises ``IllegalActionError``.
        """
        return self._policy.choose(observation)

    def explain(self, observation: Observation) -> Explanation:
        """The action :meth:`act` chooses for ``observation`` with the reasons, as
        :meth:`StrongBot.explain <majiang.bots.StrongBot.explain>` gives them (the
        chances and values are the expert's expected points). In huainan the expert plays
        a policy that does not explain its choices: ``ValueError``.
        """
        return Explanation.from_dict(self._policy.explain(observation))

    def __repr__(self) -> str:
        return f"ExpertBot(seed={self.seed})"
