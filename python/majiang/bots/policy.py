"""``PolicyBot``: a batched policy playing one observation at a time.

A batched policy is what :class:`majiang.env.VectorEnv` opponents and
:func:`majiang.env.evaluate` take: a callable given a dict of arrays with one row per
table (``"observation"`` ``(N, C, 34)`` and ``"action_mask"`` ``(N, A)``, plus
``"cand_index"`` / ``"cand_features"`` when its ``candidates`` attribute is true and the
GB planes in ``"observation"`` when its ``features`` attribute is ``"v2"``) that returns
``N`` action indices. ``PolicyBot`` hands it the same arrays for a single observation (a
batch of one), so the same model plays in :class:`majiang.Game`, :func:`majiang.arena`
and :func:`majiang.ladder` as in the environments, with the same choices: the rows are
the ones a ``VecEnv`` writes for that seat at that decision.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .._core import (
    ENV_MAX_CANDIDATES,
    ENV_N_FEATURES,
    Action,
    Observation,
    action_features,
    encode_observation,
    gb_planes,
    index_to_action,
    legal_mask,
)
from ..errors import IllegalActionError, InvalidArgumentError, InvalidTypeError
from .basic import _legal

__all__ = ["PolicyBot"]


class PolicyBot:
    """A bot playing a batched policy (see the module documentation).

    ``policy``: the batched policy; ``candidates`` and ``features`` are read from its
    attributes of those names (default ``False`` and ``"v1"``) and may be overridden
    here. ``name``: how the bot is named in results (the ladder's table, errors); by
    default the policy's ``name`` attribute or its class name.

    An index outside the action space raises :class:`~majiang.IllegalActionError` naming
    the policy; an index of an action that is not legal at the decision is refused by the
    engine like any bot's illegal action (inside an arena: ``IllegalBotActionError`` for
    this bot).
    """

    def __init__(
        self,
        policy: Callable[[dict[str, np.ndarray]], Any],
        *,
        candidates: bool | None = None,
        features: str | None = None,
        name: str | None = None,
    ) -> None:
        if not callable(policy):
            raise InvalidTypeError(
                f"policy must be callable with a batch of arrays, got {type(policy).__name__}"
            )
        self.policy = policy
        self.candidates = bool(
            getattr(policy, "candidates", False) if candidates is None else candidates
        )
        self.features = str(getattr(policy, "features", "v1") if features is None else features)
        if self.features not in ("v1", "v2"):
            raise InvalidArgumentError(f"features must be 'v1' or 'v2', got {self.features!r}")
        self.name = name or str(getattr(policy, "name", "") or type(policy).__name__)

    def batch(self, observation: Observation) -> dict[str, np.ndarray]:
        """The batch of one row the policy is given for `observation`."""
        planes = encode_observation(observation)
        if self.features == "v2":
            planes = np.concatenate([planes, gb_planes(observation)])
        out: dict[str, np.ndarray] = {
            "observation": planes[None],
            "action_mask": legal_mask(observation).view(np.int8)[None],
        }
        if self.candidates:
            idx, feats = action_features(observation)
            ci = np.full((1, ENV_MAX_CANDIDATES), -1, np.int16)
            cf = np.zeros((1, ENV_MAX_CANDIDATES, ENV_N_FEATURES), np.float32)
            ci[0, : len(idx)] = idx
            cf[0, : len(idx)] = feats
            out["cand_index"] = ci
            out["cand_features"] = cf
        return out

    def act(self, observation: Observation) -> Action:
        """The policy's action for `observation` (the only one when there is one)."""
        legal = _legal(observation)
        if len(legal) == 1:
            return legal[0]
        batch = self.batch(observation)
        answer = np.asarray(self.policy(batch)).reshape(-1)
        if answer.shape != (1,) or not np.issubdtype(answer.dtype, np.integer):
            raise InvalidTypeError(
                f"policy {self.name!r} must return one integer action index per row, got {answer!r}"
            )
        index = int(answer[0])
        if not 0 <= index < batch["action_mask"].shape[1]:
            raise IllegalActionError(
                f"policy {self.name!r} chose action index {index}, outside the action "
                f"space (0 to {batch['action_mask'].shape[1] - 1})"
            )
        # An index of the action space that is not legal here is returned as its action:
        # the engine refuses it as it refuses any bot's illegal action.
        return index_to_action(index)

    def __repr__(self) -> str:
        return f"PolicyBot({self.name!r})"
