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

from .._core import (
    MAX_THREADS,
    Action,
    Observation,
    Policy,
    RuleSet,
    option_values,
    policy_names,
)
from .explain import Explanation
from .values import OptionValue, OptionValues

__all__ = ["ExpertBot"]


class ExpertBot:
    """The expert policy as a bot: ``act(observation)`` returns one of
    ``observation.legal_actions``.

    ``seed`` seeds its tie-breaks (None is 0; the same seed and observations give the
    same actions). It plays the rules each observation was dealt under
    (``observation.rules``): the fan plans in gb and classic, the wild-aware Huainan
    policy in huainan (see ``docs/huainan_bot.md``). ``rules`` (a name or a
    :class:`~majiang.RuleSet`) restricts it to those rules, and an observation dealt
    under others then raises :class:`~majiang.RuleError`. ``samples`` is the number of
    sampled deals :meth:`value_of_options` plays every option on (2 to 100,000: a
    standard error needs two; default 64) and ``playout`` the built-in bot that plays the
    deciding seat on in those playouts (default ``"expert"``; the other seats play
    ``"efficiency"``); ``threads`` the threads those playouts run on (the values do not
    depend on it).
    """

    def __init__(
        self,
        seed: int | None = None,
        rules: str | RuleSet | None = None,
        *,
        samples: int = 64,
        playout: str = "expert",
        threads: int = 1,
    ) -> None:
        self.seed = 0 if seed is None else int(seed)
        if not 2 <= int(samples) <= 100_000:
            raise ValueError(f"samples must be 2 to 100,000, got {samples}")
        self.samples = int(samples)
        if playout not in policy_names():
            raise ValueError(
                f"playout must be a built-in bot ({', '.join(policy_names())}), got {playout!r}"
            )
        self.playout = playout
        if not 1 <= int(threads) <= MAX_THREADS:
            raise ValueError(f"threads must be 1 to {MAX_THREADS}, got {threads}")
        self.threads = int(threads)
        self._rules = rules
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
        return Explanation.from_dict(self._policy.explain(observation), expected_points=True)

    def value_of_options(self, observation: Observation) -> OptionValues:
        """The expected points of every legal action of ``observation`` for its seat,
        with the uncertainty and the method (see :class:`~majiang.bots.values.OptionValues`).

        Every action is tried on the same :attr:`samples` sampled deals (the tiles the
        seat cannot see drawn at random), and the hand is played to its end by the
        :attr:`playout` bot at the seat and the efficiency bot at the others; a value is
        the mean score change of the seat, in points, with its standard error, the
        loss against the best option and the gap to the expert's choice. ``expert_action`` is
        the action this bot's policy chooses. The result depends only on the bot's seed,
        ``samples`` and the observation (the bot's own play is not advanced). Errors as in
        :meth:`act`; in huainan the deals cannot be sampled (the 宝 state is not in the
        view): :class:`~majiang.RuleError`. On private walls (Botzone's gb) the view does
        not show which tiles stand in whose wall: the playouts draw the same unseen tiles
        from one shared wall (``shared_wall`` on the result).
        """
        expert = Policy("expert", rules=self._rules, seed=self.seed).choose(observation)
        samples, shared_wall, rows = option_values(
            observation,
            self.samples,
            seed=self.seed,
            player=self.playout,
            reference=expert,
            threads=self.threads,
        )
        options = [
            OptionValue(
                action=a,
                points=mean,
                std_err=se,
                loss=loss,
                loss_se=loss_se,
                gap=gap,
                gap_se=gap_se,
                expert=a == expert,
            )
            for a, mean, se, loss, loss_se, gap, gap_se in rows
        ]
        options.sort(key=lambda o: -o.points)
        return OptionValues(
            seat=observation.seat,
            options=tuple(options),
            samples=samples,
            seed=self.seed,
            expert_action=expert,
            playout_bot=self.playout,
            shared_wall=shared_wall,
        )

    def __repr__(self) -> str:
        return f"ExpertBot(seed={self.seed})"
