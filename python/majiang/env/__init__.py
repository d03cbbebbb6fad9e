"""Learning environments: feature planes, action masks and Gymnasium / PettingZoo envs.

The encoding (``docs/encoding.md``, version :data:`ENCODING_VERSION`) turns what one seat
may see into a ``(N_PLANES, 34)`` uint8 array, and its legal actions into a mask over a
fixed action space of :data:`N_ACTIONS` indices (every action of every rule set).

- :func:`encode` / :func:`legal_mask`: the planes and the mask of an
  :class:`~majiang.Observation` (written into a caller's array when given);
- :func:`action_to_index` / :func:`index_to_action`: the action space both ways;
- encoding v2 (``docs/encoding.md``): :func:`gb_planes` (the oracle's GB planes of an
  observation, :data:`N_GB_PLANES` of them; ``VecEnv(features="v2")`` appends them to
  every row), :func:`action_features` (every legal action with :data:`N_FEATURES`
  features of the position after it; ``VecEnv(candidates=True)``), ``VecEnv(oracle=True)``
  (every hand and the wall's next tiles, for a critic) and ``VecEnv(history=True)`` (the
  hand's actions as tokens);
- :class:`VectorEnv`: the standard ``gymnasium.vector.VectorEnv`` over the Rust tables
  (``gym.make_vec("majiang/GB-v0", num_envs=N, vectorization_mode="vector_entry_point")``;
  ids for every rule set in :data:`GYM_IDS`);
- :func:`evaluate`: duplicate evaluation of a batched policy (:class:`ModelPolicy`, the
  shipped model's network, is one) at batch speed;
- :class:`VecEnv`: N tables (1 to :data:`MAX_ENVS`) stepped together in Rust across
  threads (one learning seat each against three built-in opponents, or with
  ``seat="all"`` self-play: every seat learns, one decision of the acting seat per step),
  numpy arrays written in place;
  ``VecEnv.sample_legal`` draws a uniformly random legal index per table in Rust;
- :class:`MahjongEnv` (Gymnasium, one learning seat) and :class:`MahjongAECEnv`
  (PettingZoo AEC, four learning seats), imported on first use: they need the ``rl``
  extra (``pip install "majiang[rl]"``).
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING, Any

from .._core import (
    ENV_ENCODING_VERSION as ENCODING_VERSION,
)
from .._core import (
    ENV_MAX_CANDIDATES as MAX_CANDIDATES,
)
from .._core import (
    ENV_MAX_ENVS as MAX_ENVS,
)
from .._core import (
    ENV_MAX_TOKENS as MAX_TOKENS,
)
from .._core import (
    ENV_N_ACTIONS as N_ACTIONS,
)
from .._core import (
    ENV_N_FEATURES as N_FEATURES,
)
from .._core import (
    ENV_N_GB_PLANES as N_GB_PLANES,
)
from .._core import (
    ENV_N_ORACLE_PLANES as N_ORACLE_PLANES,
)
from .._core import (
    ENV_N_PLANES as N_PLANES,
)
from .._core import (
    VecEnv,
    action_features,
    action_to_index,
    gb_planes,
    index_to_action,
    legal_mask,
)
from .._core import (
    encode_observation as encode,
)
from .evaluate import Evaluation, evaluate
from .model import ModelPolicy
from .selfplay import SelfPlayRollout, Trajectory

if TYPE_CHECKING:
    from .aec import MahjongAECEnv
    from .gym import MahjongEnv
    from .vector import VectorEnv

__all__ = [
    "ENCODING_VERSION",
    "GYM_IDS",
    "MAX_CANDIDATES",
    "MAX_TOKENS",
    "N_FEATURES",
    "N_GB_PLANES",
    "N_ORACLE_PLANES",
    "Evaluation",
    "ModelPolicy",
    "SelfPlayRollout",
    "Trajectory",
    "MAX_ENVS",
    "N_ACTIONS",
    "N_PLANES",
    "MahjongAECEnv",
    "MahjongEnv",
    "VecEnv",
    "VectorEnv",
    "register_envs",
    "action_features",
    "action_to_index",
    "encode",
    "evaluate",
    "gb_planes",
    "index_to_action",
    "legal_mask",
]


_NEEDS = {
    "MahjongEnv": ("gym", "Gymnasium"),
    "VectorEnv": ("vector", "Gymnasium"),
    "MahjongAECEnv": ("aec", "PettingZoo and Gymnasium"),
}


def __getattr__(name: str) -> Any:
    if name in _NEEDS:
        module, package = _NEEDS[name]
        try:
            from importlib import import_module

            return getattr(import_module(f".{module}", __name__), name)
        except ModuleNotFoundError as e:
            if (e.name or "").split(".")[0] not in ("gymnasium", "pettingzoo"):
                raise
            raise ImportError(
                f'majiang.env.{name} needs {package}: pip install "majiang[rl]"'
            ) from e
    raise AttributeError(f"module 'majiang.env' has no attribute {name!r}")


#: The ``gym.make`` ids, one per rule set: ``majiang/GB-v0`` (``gym.make``: a
#: :class:`MahjongEnv`; ``gym.make_vec(..., vectorization_mode="vector_entry_point")``: a
#: :class:`VectorEnv`), ``majiang/Classic-v0``, ``majiang/Huainan-v0`` and
#: ``majiang/Botzone-v0``.
GYM_IDS = {
    "majiang/GB-v0": "gb",
    "majiang/Classic-v0": "classic",
    "majiang/Huainan-v0": "huainan",
    "majiang/Botzone-v0": "botzone",
}


def register_envs() -> None:
    """Registers :data:`GYM_IDS` with gymnasium (done when ``majiang.env`` is imported
    with gymnasium installed; calling it again does nothing)."""
    from gymnasium.envs.registration import register, registry

    for env_id, rules in GYM_IDS.items():
        if env_id not in registry:
            register(
                id=env_id,
                entry_point="majiang.env.gym:MahjongEnv",
                vector_entry_point="majiang.env.vector:VectorEnv",
                kwargs={"rules": rules},
            )


if importlib.util.find_spec("gymnasium") is not None:
    register_envs()
