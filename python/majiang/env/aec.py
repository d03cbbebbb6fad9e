"""A PettingZoo AEC environment: four learning seats."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .._core import (
    ENV_N_ACTIONS,
    ENV_N_PLANES,
    Match,
    encode_observation,
    index_to_action,
    legal_mask,
)
from ..errors import InvalidArgumentError, InvalidTypeError, UsageError
from ..record import MatchRecord
from ._records import hand_record, new_record, rule_set


class MahjongAECEnv(AECEnv):
    """Four learning seats, agents ``"player_0"`` to ``"player_3"`` (seat order).

    The agent to act is the lowest seat that must decide; in a claim window every seat
    that may claim acts in turn (their answers are collected, then the window closes as
    the rules say). Observations are ``{"observation": (N_PLANES, 34) uint8,
    "action_mask": (N_ACTIONS,) int8}`` (the mask is all zero for a seat with nothing to
    decide); actions are indices of the fixed action space. Rewards are each seat's score
    change at the end of each hand. Play follows a match of ``hands`` hands (the rule
    set's ``hands_per_match`` by default: the deal and the winds rotate, scores carry
    over). ``episode="hand"`` (default) ends an episode after each hand, and the next
    :meth:`reset` without a seed deals the match's next hand; ``episode="match"`` plays
    the whole match as one episode. ``reset(seed=s)`` starts the match seeded ``s``
    afresh (so does a reset without a seed once the match is over, with a random seed);
    :attr:`record` is the match's :class:`~majiang.record.MatchRecord`.
    """

    metadata: dict[str, Any] = {
        "render_modes": ["ansi"],
        "name": "majiang_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: Any = "gb",
        *,
        episode: str = "hand",
        hands: int | None = None,
        render_mode: str | None = None,
    ):
        super().__init__()
        if episode not in ("hand", "match"):
            raise InvalidArgumentError(f'episode must be "hand" or "match", got {episode!r}')
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidArgumentError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.rules = rule_set(rules)
        self.episode = episode
        self.hands = hands
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(4)]
        self._obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0, 255, (ENV_N_PLANES, 34), np.uint8),
                "action_mask": spaces.Box(0, 1, (ENV_N_ACTIONS,), np.int8),
            }
        )
        self._act_space = spaces.Discrete(ENV_N_ACTIONS)
        self._rng = np.random.default_rng()
        self._match: Match | None = None
        self.record: MatchRecord | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        """The same for every agent."""
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space:
        """The same for every agent."""
        return self._act_space

    def _select(self) -> None:
        pending = self._round.pending
        if pending:
            self.agent_selection = self.possible_agents[pending[0]]

    def _started(self) -> tuple[Match, MatchRecord]:
        """The match in play and its record (``UsageError`` before the first reset)."""
        if self._match is None or self.record is None:
            raise UsageError("the environment has no match yet: call reset() first")
        return self._match, self.record

    def _deal(self) -> None:
        m, _ = self._started()
        self._hand = (m.hand_index, m.hand_seed, m.scores)
        self._round = m.start_hand()

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deals the first hand of the match seeded `seed`, or without a seed the next
        hand of the match in play (a new match with a random seed once it is over)."""
        m = self._match
        if seed is not None or m is None or m.is_over or m.hand_in_play:
            if seed is None:
                seed = int(self._rng.integers(0, 2**63))
            self._match = Match(self.rules, seed, self.hands)
            self.record = new_record(self.rules, seed, self._match.hands, self.possible_agents)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._deal()
        self._select()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The planes and mask of `agent`'s seat now."""
        obs = self._round.observation(self.possible_agents.index(agent))
        return {
            "observation": encode_observation(obs),
            "action_mask": legal_mask(obs).view(np.int8),
        }

    def step(self, action: int | None) -> None:
        """Plays the selected agent's action (an index of the action space)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.possible_agents.index(agent)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if action is None:
            raise InvalidTypeError("a live agent's action must be an action index, not None")
        m, record = self._started()
        if isinstance(action, np.ndarray) and action.size == 1 and action.dtype.kind in "iu":
            action = int(action.reshape(()))
        # index_to_action reads the index strictly: a float or bool is refused, not rounded.
        self._round.apply(seat, index_to_action(action))
        r = self._round
        result = r.result
        if result is not None:
            m.finish_hand(r)
            index, seed, before = self._hand
            record.hands.append(hand_record(index, seed, r, before, m.scores))
            record.final_scores = list(m.scores)
            for i, a in enumerate(self.agents):
                self.rewards[a] = float(result["deltas"][i])
            if self.episode == "hand" or m.is_over:
                for a in self.agents:
                    self.terminations[a] = True
            else:
                self._deal()
        self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """``ansi``: the table (full information) as text."""
        if self.render_mode != "ansi":
            return None
        return repr(self._round)

    def close(self) -> None:
        """Nothing to release."""
