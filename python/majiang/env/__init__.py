"""Learning environments: feature planes, action masks and Gymnasium / PettingZoo envs.

The encoding (``docs/encoding.md``, version :data:`ENCODING_VERSION`) turns what one seat
may see into a ``(N_PLANES, 34)`` uint8 array, and its legal actions into a mask over a
fixed action space of :data:`N_ACTIONS` indices (every action of every rule set).

- :func:`encode` / :func:`legal_mask`: the planes and the mask of an
  :class:`~majiang.Observation` (written into a caller's array when given);
- :func:`action_to_index` / :func:`index_to_action`: the action space both ways;
- :class:`VecEnv`: N tables (1 to :data:`MAX_ENVS`) stepped together in Rust across
  threads (one learning seat each against three built-in opponents, or with
  ``seat="all"`` self-play: every seat learns, one decision of the acting seat per step),
  numpy arrays written in place;
  ``VecEnv.sample_legal`` draws a uniformly random legal index per table in Rust;
- :class:`MahjongEnv` (Gymnasium, one learning seat) and :class:`MahjongAECEnv`
  (PettingZoo AEC, four learning seats), imported on first use: they need the ``rl``
  extra (``pip install majiang[rl]``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._core import (
    ENV_ENCODING_VERSION as ENCODING_VERSION,
)
from .._core import (
    ENV_MAX_ENVS as MAX_ENVS,
)
from .._core import (
    ENV_N_ACTIONS as N_ACTIONS,
)
from .._core import (
    ENV_N_PLANES as N_PLANES,
)
from .._core import (
    VecEnv,
    action_to_index,
    index_to_action,
    legal_mask,
)
from .._core import (
    encode_observation as encode,
)

if TYPE_CHECKING:
    from .aec import MahjongAECEnv
    from .gym import MahjongEnv

__all__ = [
    "ENCODING_VERSION",
    "MAX_ENVS",
    "N_ACTIONS",
    "N_PLANES",
    "MahjongAECEnv",
    "MahjongEnv",
    "VecEnv",
    "action_to_index",
    "encode",
    "index_to_action",
    "legal_mask",
]


def __getattr__(name: str) -> Any:
    if name == "MahjongEnv":
        from .gym import MahjongEnv

        return MahjongEnv
    if name == "MahjongAECEnv":
        from .aec import MahjongAECEnv

        return MahjongAECEnv
    raise AttributeError(f"module 'majiang.env' has no attribute {name!r}")
