"""``StrongBot``: the strongest built-in bot, a thin wrapper over the Rust strong policy.

The policy plans toward fans (flushes, all pungs, straights, mixed shifted and triple
chows, knitted forms, seven pairs, honors), values hands close to ready by their chance
of winning (the live copies of the waits that reach the minimum fan, one or two draws
ahead), prices every discard's danger from what the table shows and folds a poor hand
against a likely-ready opponent. On request it also plays its closest options out on
sampled deals with the Rust round (a determinized Monte Carlo search). See
docs/bots.md, "StrongBot", for its measured strength.
"""

from __future__ import annotations

from .._core import Action, Observation, RuleSet, StrongPolicy
from .explain import Explanation

__all__ = ["StrongBot"]


class StrongBot:
    """The strong bot.

    ``seed`` fixes its sampling (same seed, same observations: same actions).
    ``rollouts`` turns the search on (rollouts per searched decision; default 0: the
    search at this budget plays worse than the lookahead alone). ``budget_ms`` is the
    wall-clock cap of a search per decision (default 50 ms; it only binds on a machine
    much slower than the rollout count assumes: pass ``time_cap=False`` to make the play
    independent of time everywhere). It plays the rules each observation was dealt
    under (``observation.rules``); ``rules`` (a name or a :class:`majiang.RuleSet`)
    restricts it to those rules, and an observation dealt under others then raises
    :class:`majiang.RuleError`.
    """

    def __init__(
        self,
        seed: int | None = 0,
        budget_ms: int = 50,
        *,
        rules: str | RuleSet | None = None,
        rollouts: int | None = None,
        time_cap: bool = True,
    ) -> None:
        self.seed = 0 if seed is None else int(seed)
        self.budget_ms = int(budget_ms)
        self._policy = StrongPolicy(
            rules=rules,
            seed=self.seed,
            budget_ms=self.budget_ms,
            rollouts=rollouts,
            time_cap=time_cap,
        )

    @property
    def rollouts(self) -> int:
        """Rollouts per searched decision."""
        return self._policy.rollouts

    def begin_hand(self, seed: int) -> None:
        """Reseeds the policy for a new hand (:func:`majiang.arena` calls it before each
        game with the seed the built-in bot would get, so the bot plays that game as the
        built-in one does)."""
        self._policy.reseed(seed)

    def act(self, observation: Observation) -> Action:
        """One of ``observation.legal_actions``.

        ``observation`` must come from :meth:`majiang.Round.observation` (anything else is
        a ``TypeError``); one without legal actions raises ``IllegalActionError``.
        """
        return self._policy.choose(observation)

    def explain(self, observation: Observation) -> Explanation:
        """The action :meth:`act` chooses for ``observation``, with the reasons: the layer
        that decided, the leading candidates with their plans, chances of winning, danger
        and values, the claim against the pass, the opponents' threat (see
        :class:`majiang.bots.explain.Explanation`; ``print`` it for a short table). The bot
        advances as after :meth:`act`, so explaining every decision plays the same hand.
        Errors as in :meth:`act`.
        """
        return Explanation.from_dict(self._policy.explain(observation))

    def __repr__(self) -> str:
        return f"StrongBot(seed={self.seed}, budget_ms={self.budget_ms})"
