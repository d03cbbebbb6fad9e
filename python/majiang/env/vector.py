"""The standard vector API: a ``gymnasium.vector.VectorEnv`` over the Rust tables."""

from __future__ import annotations

import copy
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from .._core import ENV_N_ACTIONS, ENV_N_GB_PLANES, ENV_N_PLANES, ENV_STAY, VecEnv, gb_planes
from .._core import encode_observation as _encode
from ..errors import InvalidArgumentError, UsageError
from ._records import rule_set

#: ``autoreset_mode`` values (gymnasium's names); the first is the default.
AUTORESET_MODES = ("same_step", "next_step")


def observation_space(features: str = "v1") -> spaces.Dict:
    """The observation space of one seat: ``{"observation": (C, 34) uint8,
    "action_mask": (ENV_N_ACTIONS,) int8}``, C = ``ENV_N_PLANES`` (plus
    ``ENV_N_GB_PLANES`` with ``features="v2"``)."""
    c = ENV_N_PLANES + (ENV_N_GB_PLANES if features == "v2" else 0)
    return spaces.Dict(
        {
            "observation": spaces.Box(0, 255, (c, 34), np.uint8),
            "action_mask": spaces.Box(0, 1, (ENV_N_ACTIONS,), np.int8),
        }
    )


class VectorEnv(gym.vector.VectorEnv):
    """``num_envs`` tables, each with one learning seat against three opponents, stepped
    together in Rust: a ``gymnasium.vector.VectorEnv``.

    - ``reset(seed=s)`` returns ``(obs, infos)``; ``step(actions)`` returns ``(obs,
      rewards, terminations, truncations, infos)``; ``obs`` is a dict with
      ``"observation"`` ``(N, C, 34)`` uint8 and ``"action_mask"`` ``(N, A)`` int8 (1 at
      the legal actions); ``actions`` one legal index per table; ``rewards`` float32
      score changes (0 inside a hand); ``truncations`` always False (a hand always ends).
    - **Episodes**: ``episode="hand"`` (default) or ``"match"``, as in ``VecEnv``.
    - **Autoreset** (``metadata["autoreset_mode"]``): ``"same_step"`` (default, gymnasium's
      ``AutoresetMode.SAME_STEP``): a table whose episode ends starts the next one in the
      same step; ``obs`` holds the new episode's first observation and ``infos`` the
      ended episode's last one as ``infos["final_obs"]`` (an array of dicts, ``None``
      where no episode ended) with ``infos["_final_obs"]`` the boolean mask, as gymnasium
      defines. ``"next_step"`` (``AutoresetMode.NEXT_STEP``): a table whose episode ended
      returns its final observation; its next ``step`` ignores that table's action,
      starts the next episode and returns its first observation with reward 0 and
      ``terminations`` False.
    - **Copies**: with ``copy=True`` (default) every call returns fresh arrays; with
      ``copy=False`` the arrays are the env's own, overwritten by the next call (faster).
    - ``opponents``: a built-in bot name or three (``"efficiency"`` by default; ``"model"``
      is the shipped model bot), or a **batched policy**: a callable given, once per round
      of opponent moves, a dict of the arrays of every table where an opponent acts
      (``"observation"``, ``"action_mask"``, ``"seat"``, and ``"cand_index"`` /
      ``"cand_features"`` when the policy has ``candidates = True``, as
      :class:`~majiang.env.ModelPolicy`) and returning one action index per row; it
      plays the three other seats (a frozen checkpoint for self-play at batch speed). The
      tables then run in self-play and each step plays the opponents until the learning
      seat decides again. ``features="v2"`` appends the GB planes
      (docs/encoding.md). ``threads``: as in ``VecEnv`` (results never depend on it).
    - **Pickling and copying**: an env pickles and deep-copies as its arguments, its last
      reset's seed and the actions stepped since, replayed on load: the copy continues
      exactly as the original would (replay costs as many steps as were taken).
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": ["ansi"]}

    def __init__(
        self,
        num_envs: int = 1,
        *,
        rules: Any = "gb",
        opponents: str | list[str] = "efficiency",
        seat: int = 0,
        seed: int = 0,
        episode: str = "hand",
        hands: int | None = None,
        features: str = "v1",
        threads: int | None = None,
        autoreset_mode: str | AutoresetMode = "same_step",
        copy: bool = True,
        render_mode: str | None = None,
    ) -> None:
        mode = autoreset_mode.value if isinstance(autoreset_mode, AutoresetMode) else autoreset_mode
        mode = {"SameStep": "same_step", "NextStep": "next_step"}.get(mode, mode)
        if mode not in AUTORESET_MODES:
            raise InvalidArgumentError(
                f"autoreset_mode must be one of {', '.join(AUTORESET_MODES)}, "
                f"got {autoreset_mode!r}"
            )
        if render_mode not in (None, "ansi"):
            raise InvalidArgumentError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self._args = dict(
            num_envs=num_envs,
            rules=rules,
            opponents=opponents,
            seat=seat,
            seed=seed,
            episode=episode,
            hands=hands,
            features=features,
            threads=threads,
            autoreset_mode=mode,
            copy=copy,
            render_mode=render_mode,
        )
        self.rules = rule_set(rules)
        self._opp = opponents if callable(opponents) else None
        self._learner = int(seat)
        self._features = features
        self._core = VecEnv(
            self.rules,
            num_envs,
            opponents=None if self._opp else opponents,
            seat="all" if self._opp else seat,
            episode=episode,
            hands=hands,
            seed=seed,
            threads=threads,
            autoreset=False,
            features=features,
            candidates=bool(getattr(self._opp, "candidates", False)),
        )
        self.num_envs = self._core.num_envs
        self.autoreset_mode = mode
        self.metadata = dict(self.metadata)
        self.metadata["autoreset_mode"] = (
            AutoresetMode.SAME_STEP if mode == "same_step" else AutoresetMode.NEXT_STEP
        )
        self.copy = copy
        self.render_mode = render_mode
        self.single_observation_space = observation_space(features)
        self.single_action_space = spaces.Discrete(ENV_N_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._seed = seed
        self._actions: list[np.ndarray] = []
        self._reset_done = False
        self._zeros = np.zeros(self.num_envs, bool)
        self._ended = np.zeros(self.num_envs, bool)

    # -- the API --------------------------------------------------------------------------

    def _obs(self) -> dict[str, np.ndarray]:
        o, m = self._core.obs, self._core.mask.view(np.int8)
        if self.copy:
            return {"observation": o.copy(), "action_mask": m.copy()}
        return {"observation": o, "action_mask": m}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Resets every table (from `seed` when given, else from the last seed) and
        returns ``(obs, infos)``."""
        if seed is not None:
            self._seed = int(seed)
        self._core.reset(self._seed)
        self._actions = []
        self._reset_done = True
        if self._opp is not None:
            self._ended = np.zeros(self.num_envs, bool)
            self._restart(np.arange(self.num_envs), initial=True)
        return self._obs(), {}

    def step(
        self, actions: Any
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Steps every table with its action and returns ``(obs, rewards, terminations,
        truncations, infos)`` (see the class documentation for the autoreset modes)."""
        if not self._reset_done:
            raise UsageError("call reset() before step()")
        acts = np.asarray(actions)
        if acts.dtype.kind not in "iu":
            raise InvalidArgumentError(
                f"actions must be integer action indices, got an array of {acts.dtype}"
            )
        acts = acts.astype(np.int64, copy=True).reshape(-1)
        infos: dict[str, Any] = {}
        self._actions.append(acts)
        if self._opp is not None:
            return self._step_against_policy(acts)
        # Without the core's autoreset, a table whose episode ended starts its next one
        # at its next step, whatever its action (next-step autoreset).
        _, _, reward, done = self._core.step(acts)
        rewards = reward.astype(np.float32, copy=True)
        term = done.copy()
        if self.autoreset_mode == "same_step" and term.any():
            idx = np.flatnonzero(term)
            final = np.empty(self.num_envs, dtype=object)
            o, m = self._core.obs, self._core.mask.view(np.int8)
            for i in idx:
                final[i] = {"observation": o[i].copy(), "action_mask": m[i].copy()}
                self._core.next_episode(int(i))
            infos["final_obs"] = final
            infos["_final_obs"] = term.copy()
            infos["final_info"] = np.array([{} if t else None for t in term], dtype=object)
            infos["_final_info"] = term.copy()
        return self._obs(), rewards, term, self._zeros.copy(), infos

    # -- batched opponents --------------------------------------------------------------

    def _batch(self, rows: np.ndarray) -> dict[str, np.ndarray]:
        core = self._core
        batch = {
            "observation": core.obs[rows],
            "action_mask": core.mask[rows].view(np.int8),
            "seat": core.seat[rows],
        }
        ci, cf = core.cand_index, core.cand_features
        if ci is not None and cf is not None:
            batch["cand_index"] = ci[rows]
            batch["cand_features"] = cf[rows]
        return batch

    def _advance(self, acc: np.ndarray, ended: np.ndarray) -> None:
        """Plays the opponents' batched policy at every table not `ended` until its
        learning seat must decide, adding the learning seat's rewards to `acc` and the
        tables whose episode ended to `ended`."""
        core = self._core
        opp = self._opp
        assert opp is not None
        while True:
            rows = (core.seat != self._learner) & ~ended
            if not rows.any():
                return
            a = np.full(self.num_envs, ENV_STAY, np.int64)
            a[rows] = np.asarray(opp(self._batch(rows)), np.int64).reshape(-1)
            _, _, rew, done = core.step(a)
            acc += rew[:, self._learner]
            ended |= done

    def _restart(self, idx: np.ndarray, initial: bool = False) -> None:
        """Starts the next episode of the tables `idx` (after a reset: their first) and
        plays on to the learning seat's first decision; an episode that ends before it
        (a win on the first discards) is skipped, as in ``VecEnv``."""
        todo = np.zeros(self.num_envs, bool)
        todo[idx] = True
        first = initial
        while todo.any():
            if not first:
                for i in np.flatnonzero(todo):
                    self._core.next_episode(int(i))
            first = False
            # Only the tables being restarted move; those whose new episode ends before
            # the learning seat decides go round again.
            ended = ~todo
            self._advance(np.zeros(self.num_envs, np.float32), ended)
            todo &= ended

    def _learner_view(self, i: int) -> dict[str, np.ndarray]:
        o = self._core.round(i).observation(self._learner)
        planes = _encode(o)
        if self._features == "v2":
            planes = np.concatenate([planes, gb_planes(o)])
        return {"observation": planes, "action_mask": np.zeros(ENV_N_ACTIONS, np.int8)}

    def _step_against_policy(self, acts: np.ndarray) -> Any:
        core = self._core
        n = self.num_envs
        infos: dict[str, Any] = {}
        rewards = np.zeros(n, np.float32)
        restart = np.flatnonzero(self._ended)
        if restart.size:
            # Next-step autoreset: those tables start their next episode, reward 0.
            self._ended[:] = False
            self._restart(restart)
            moving = np.ones(n, bool)
            moving[restart] = False
            acts = np.where(moving, acts, ENV_STAY)
        _, _, rew, done = core.step(acts)
        rewards += rew[:, self._learner]
        ended = done.copy()
        self._advance(rewards, ended)
        if restart.size:
            ended[restart] = False
        term = ended
        if term.any():
            idx = np.flatnonzero(term)
            if self.autoreset_mode == "same_step":
                final = np.empty(n, dtype=object)
                for i in idx:
                    final[i] = self._learner_view(int(i))
                infos["final_obs"] = final
                infos["_final_obs"] = term.copy()
                infos["final_info"] = np.array([{} if t else None for t in term], dtype=object)
                infos["_final_info"] = term.copy()
                self._restart(idx)
            else:
                self._ended |= term
        obs = self._obs()
        if self.autoreset_mode == "next_step" and self._ended.any():
            for i in np.flatnonzero(self._ended):
                v = self._learner_view(int(i))
                obs["observation"][i] = v["observation"]
                obs["action_mask"][i] = 0
        return obs, rewards, term, self._zeros.copy(), infos

    def render(self) -> str | None:  # type: ignore[override]
        """``ansi``: table 0's acting seat's view as text."""
        if self.render_mode != "ansi":
            return None
        seat = int(self._core.seat[0])
        return repr(self._core.round(0).observation(seat))

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: the tables live in this process."""

    # -- pickling and copying ------------------------------------------------------------

    def __getstate__(self) -> dict[str, Any]:
        return {
            "args": self._args,
            "seed": self._seed,
            "actions": list(self._actions),
            "reset": self._reset_done,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        VectorEnv.__init__(self, **state["args"])
        if state["reset"]:
            self.reset(seed=state["seed"])
            for a in state["actions"]:
                self.step(a)

    def __deepcopy__(self, memo: dict[int, Any]) -> VectorEnv:
        new = VectorEnv.__new__(VectorEnv)
        new.__setstate__(copy.deepcopy(self.__getstate__(), memo))
        return new
