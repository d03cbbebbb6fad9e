"""``StrongBot``: the strongest built-in bot, a thin wrapper over the Rust strong policy.

The policy plans toward fans (flushes, all pungs, straights, mixed shifted and triple
chows, knitted forms, seven pairs, honors) and checks that a ready hand's waits reach the
minimum fan; it prices every discard's danger from what the table shows and folds a poor
hand against a likely-ready opponent; and when its best options are close it plays each
out on sampled deals with the Rust round (a determinized Monte Carlo search). See the
README section "StrongBot" for its measured strength.
"""

from __future__ import annotations

from .._core import Action, Observation, StrongPolicy

__all__ = ["StrongBot"]


class StrongBot:
    """The strong bot.

    ``seed`` fixes its sampling (same seed, same observations: same actions).
    ``budget_ms`` is the search budget per decision (default 50): it sets a number of
    rollouts that this machine plays in well under that time, and the same value is a
    wall-clock cap that only binds on a much slower machine (pass ``time_cap=False`` to
    make the play independent of time everywhere). ``rollouts`` overrides the rollout
    count (0 turns the search off). ``rules`` is the rule set it plans for ("gb",
    "classic" or a :class:`majiang.RuleSet`).
    """

    def __init__(
        self,
        seed: int | None = 0,
        budget_ms: int = 50,
        *,
        rules: object = "gb",
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

    def act(self, observation: Observation) -> Action:
        """One of ``observation.legal_actions``."""
        return self._policy.choose(observation)

    def __repr__(self) -> str:
        return f"StrongBot(seed={self.seed}, budget_ms={self.budget_ms})"
