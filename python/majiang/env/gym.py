"""A Gymnasium environment: one learning seat against three built-in opponents that play
in Rust."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from .._core import ENV_N_ACTIONS, Action, VecEnv, action_to_index
from ..errors import InvalidArgumentError, InvalidTypeError, UsageError
from ..record import MatchRecord
from ._records import hand_record, new_record, rule_set
from .vector import observation_space

#: The values of ``MahjongEnv(illegal_action=...)``; the first is the default.
ILLEGAL_ACTION_MODES = ("substitute", "first_legal", "raise")

_PASS = action_to_index(Action("pass"))
_DISCARD = 0  # Discard(t) is index t (docs/encoding.md)
_DRAWN_PLANE = 4  # the tile just drawn, one-hot (docs/encoding.md)


def _action_index(action: Any) -> int:
    """An action index: an int (a numpy integer, or a 0-d or one-element integer array,
    as a policy's sample gives); a float, bool or complex is refused, never rounded."""
    if isinstance(action, np.ndarray) and action.size == 1 and action.dtype.kind in "iu":
        return int(action.reshape(()))
    if isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer):
        raise InvalidTypeError(
            f"action must be an int index of the action space, got {type(action).__name__} "
            "(not rounded)"
        )
    return int(action)


class MahjongEnv(gym.Env):
    """One learning seat at a table of four; the other three seats are built-in Rust
    policies (``"random"``, ``"efficiency"``, ``"strong"``, ``"strong_lite"``,
    ``"strong_search"``, ``"expert"``).

    - **Observation**: ``{"observation": (C, 34) uint8, "action_mask": (N_ACTIONS,)
      int8}`` (see ``docs/encoding.md``; C is ``N_PLANES``, plus ``N_GB_PLANES`` with
      ``features="v2"``), the same keys as every majiang env; the mask has a 1 at each
      legal action (int8, the dtype ``Discrete.sample(mask=...)`` takes).
    - **Action**: an index of the fixed action space (:func:`majiang.env.index_to_action`);
      a legal one has ``action_mask[action] == 1``. What an illegal index does is
      ``illegal_action``:

      - ``"substitute"`` (default): the seat plays the action of a player who does
        nothing: pass when passing is legal (a claim or robbing window), else discard
        the tile just drawn when that is legal, else the lowest legal index. The step
        goes on as usual and ``info`` says so: ``info["illegal_action"] = True``,
        ``info["requested_action"]`` the index given, ``info["played_action"]`` the
        index played. A masked learner never meets it; an unmasked sampler (Gymnasium's
        ``check_env``, a plain policy-gradient baseline) gets a well-defined game with the
        mistakes counted in ``info`` rather than an exception, and the reward keeps its
        meaning (score points), which an arbitrary penalty ending the episode would not.
      - ``"first_legal"``: the same with the lowest legal index in every case.
      - ``"raise"``: ``IllegalActionError``, nothing moves (to catch a masking bug).
    - **Reward**: the seat's score change at the end of each hand (0 on the other steps).
    - **Episode**: ``episode="hand"`` (default) ends at the end of each hand; the next
      :meth:`reset` without a seed deals the next hand of the same match (scores carry
      over, as in a game). ``episode="match"`` plays the whole match (``hands`` hands,
      by default the rule set's ``hands_per_match``); the rewards then add up to the
      seat's final score.
    - **Seeds**: ``reset(seed=s)`` starts a match determined by ``s`` afresh: the same walls and,
      for the same actions, the same opponents' play. ``reset()`` without a seed after a
      finished match (or at the first call) draws a seed from ``self.np_random``.
    - **Rendering**: ``render_mode="ansi"`` returns the seat's view as text from
      :meth:`render`; ``"human"`` prints it.
    - **Pickling and copying**: the env pickles and deep-copies as its arguments, its
      generator, the seed of the match in play and the actions taken since, replayed on
      load: the copy continues exactly as the original would.
    - **Records**: :attr:`record` is the :class:`~majiang.record.MatchRecord` of the match
      in play (every hand finished so far, full information); ``env.record.save(path)``
      writes it and :func:`majiang.record.replay_record` replays it.
    """

    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(
        self,
        rules: Any = "gb",
        *,
        opponents: str | list[str] = "efficiency",
        seat: int = 0,
        episode: str = "hand",
        hands: int | None = None,
        illegal_action: str = "substitute",
        render_mode: str | None = None,
        features: str = "v1",
    ):
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise InvalidArgumentError(
                f"illegal_action must be one of {', '.join(ILLEGAL_ACTION_MODES)}, "
                f"got {illegal_action!r}"
            )
        self.illegal_action = illegal_action
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidArgumentError(
                f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}"
            )
        self._args = dict(
            rules=rules,
            opponents=opponents,
            seat=seat,
            episode=episode,
            hands=hands,
            illegal_action=illegal_action,
            render_mode=render_mode,
            features=features,
        )
        self.features = features
        self.rules = rule_set(rules)
        self.opponents = opponents
        self.seat = seat
        self.episode = episode
        self.hands = hands
        self.render_mode = render_mode
        self.observation_space = observation_space(features)
        self.action_space = spaces.Discrete(ENV_N_ACTIONS)
        # Built now so that bad arguments fail here, not at the first reset.
        self._core = self._make(0)
        self._ended = True
        self._fresh = True
        # The seed of the match in play and what was done since (for pickling).
        self._core_seed: int | None = None
        self._trace: list[int] = []
        self.record: MatchRecord | None = None
        self.records: list[MatchRecord] = []

    def _make(self, seed: int) -> VecEnv:
        return VecEnv(
            self.rules,
            1,
            opponents=self.opponents,
            seat=self.seat,
            episode=self.episode,
            hands=self.hands,
            seed=seed,
            threads=1,
            autoreset=False,
            record=True,
            features=self.features,
        )

    def _obs(self) -> dict[str, np.ndarray]:
        return {
            "observation": self._core.obs[0].copy(),
            "action_mask": self._core.mask[0].view(np.int8).copy(),
        }

    def _collect(self) -> None:
        for h in self._core.finished_hands(0):
            if self.record is None or self.record.seed != h["match_seed"]:
                players = ["learner"] * 4
                names = [self.opponents] * 3 if isinstance(self.opponents, str) else self.opponents
                for k, name in enumerate(names):
                    players[(self.seat + 1 + k) % 4] = str(name)
                self.record = new_record(self.rules, h["match_seed"], h["hands"], players)
                self.records.append(self.record)
            self.record.hands.append(
                hand_record(
                    h["index"], h["seed"], h["round"], h["scores_before"], h["scores_after"]
                )
            )
            self.record.final_scores = list(h["scores_after"])

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Starts an episode: a new match from `seed` when given (or when the last match
        is over), else the next hand of the match in play (``episode="hand"``)."""
        super().reset(seed=seed)
        core = self._core
        match_over = self.record is not None and self.record.complete
        if seed is not None or self._fresh or match_over or not self._ended:
            s = seed if seed is not None else int(self.np_random.integers(0, 2**63))
            self._core = self._make(s)
            self._core_seed = s
            self._trace = []
            self.record = None
            self.records = []
            self._fresh = False
        else:
            core.next_episode(0)
            self._trace.append(-1)
        self._ended = False
        self._collect()
        return self._obs(), {}

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """Plays the seat's action (an index) and the opponents until the seat must
        decide again or the episode ends."""
        if self._ended:
            raise UsageError("the episode is over: call reset()")
        info: dict[str, Any] = {}
        mask = self._core.mask[0]
        a = _action_index(action)
        if self.illegal_action != "raise" and not (0 <= a < len(mask) and mask[a]):
            played = self._substitute(mask)
            info.update(illegal_action=True, requested_action=a, played_action=played)
            a = played
        _, _, reward, done = self._core.step(np.array([a], dtype=np.int64))
        self._trace.append(a)
        self._ended = bool(done[0])
        self._collect()
        return self._obs(), float(reward[0]), self._ended, False, info

    def _substitute(self, mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask)
        if self.illegal_action == "substitute":
            if mask[_PASS]:
                return _PASS
            drawn = np.flatnonzero(self._core.obs[0, _DRAWN_PLANE])
            if drawn.size and mask[_DISCARD + drawn[0]]:
                return _DISCARD + int(drawn[0])
        return int(legal[0])

    def action_masks(self) -> np.ndarray:
        """The current action mask (for maskable-policy libraries)."""
        return self._core.mask[0].astype(bool)

    def render(self) -> str | None:
        """``ansi``: the seat's view as text; ``human``: the same, printed."""
        if self.render_mode is None:
            return None
        text = repr(self._core.round(0).observation(self.seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def __getstate__(self) -> dict[str, Any]:
        return {
            "args": self._args,
            "np_random": self._np_random,
            "core_seed": self._core_seed,
            "trace": list(self._trace),
            "ended": self._ended,
            "fresh": self._fresh,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        MahjongEnv.__init__(self, **state["args"])
        self._np_random = state["np_random"]
        if state["core_seed"] is not None:
            self._core = self._make(state["core_seed"])
            self._core_seed = state["core_seed"]
            self._collect()
            for a in state["trace"]:
                if a < 0:
                    self._core.next_episode(0)
                else:
                    self._core.step(np.array([a], dtype=np.int64))
                self._trace.append(a)
                self._collect()
        self._ended = state["ended"]
        self._fresh = state["fresh"]
