"""An SB3-compatible ``VecEnv`` over the Rust tables (``majiang.env.sb3.SB3VecEnv``).

Stable-Baselines3 steps its own ``VecEnv`` interface (``reset() -> obs``,
``step_async`` / ``step_wait`` returning ``(obs, rewards, dones, infos)`` with the final
observation in ``infos[i]["terminal_observation"]``); sb3-contrib's ``MaskablePPO``
reads the masks through ``env_method("action_masks")``. This class gives both over a
:class:`majiang.env.VectorEnv` (same-step autoreset), without copying the tables into
Python envs. It needs ``stable-baselines3`` (the ``train`` extra).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import MissingExtraError

try:
    from stable_baselines3.common.vec_env.base_vec_env import VecEnv as _SB3VecEnv
except ModuleNotFoundError as e:  # pragma: no cover - depends on the environment
    raise MissingExtraError(
        'majiang.env.sb3 needs stable-baselines3: pip install "majiang[train]"'
    ) from e

from .vector import VectorEnv

__all__ = ["SB3VecEnv"]


class SB3VecEnv(_SB3VecEnv):
    """``num_envs`` tables as a Stable-Baselines3 ``VecEnv``; the keyword arguments are
    :class:`majiang.env.VectorEnv`'s (``rules``, ``opponents``, ``seat``, ``seed``,
    ``features``, ...). Observations are the dict ``{"observation", "action_mask"}``
    (use ``"MultiInputPolicy"``); ``action_masks()`` gives the masks as booleans."""

    def __init__(self, num_envs: int = 1, **kwargs: Any) -> None:
        kwargs.setdefault("autoreset_mode", "same_step")
        self.venv = VectorEnv(num_envs, **kwargs)
        super().__init__(
            self.venv.num_envs, self.venv.single_observation_space, self.venv.single_action_space
        )
        self._actions: np.ndarray | None = None
        self._seed: int | None = None
        self._obs: dict[str, np.ndarray] | None = None

    def reset(self) -> dict[str, np.ndarray]:
        seed = self._seed
        self._seed = None
        obs, _ = self.venv.reset(seed=seed)
        self._obs = obs
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions).reshape(-1).astype(np.int64)

    def step_wait(self) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, list[dict]]:
        assert self._actions is not None, "step_async first"
        obs, rew, term, trunc, info = self.venv.step(self._actions)
        dones = term | trunc
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if dones.any():
            for i in np.flatnonzero(dones):
                infos[i]["terminal_observation"] = info["final_obs"][i]
                infos[i]["TimeLimit.truncated"] = bool(trunc[i] and not term[i])
        self._obs = obs
        return obs, rew, dones, infos

    def action_masks(self) -> np.ndarray:
        """The current masks, ``(num_envs, A)`` bool."""
        assert self._obs is not None, "reset first"
        return self._obs["action_mask"].astype(bool)

    def close(self) -> None:
        self.venv.close()

    def seed(self, seed: int | None = None) -> list[int | None]:
        self._seed = seed
        return [seed] * self.num_envs

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == "action_masks" or hasattr(self.venv, attr_name)

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        return [getattr(self.venv, attr_name)] * len(self._indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        setattr(self.venv, attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
    ) -> list[Any]:
        idx = self._indices(indices)
        if method_name == "action_masks":
            m = self.action_masks()
            return [m[i] for i in idx]
        result = getattr(self.venv, method_name)(*method_args, **method_kwargs)
        return [result] * len(idx)

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False] * len(self._indices(indices))

    def _indices(self, indices: Any) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)
