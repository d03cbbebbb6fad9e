"""The model bot's network in numpy: scores of candidate actions from their features.

:class:`ModelPolicy` reads a weights file (``np.savez`` of ``mean``, ``std``, ``w1``,
``b1``, ``w2``, ``b2``, ``w3``, ``b3``, float32; the shipped one is
``majiang/models/gb.npz``) and scores each legal action from the
``ENV_N_FEATURES`` features of the position after it (docs/encoding.md, "Action
features"). It is a batched policy (:func:`majiang.env.evaluate`,
:class:`majiang.env.VectorEnv` opponents): called with a batch holding ``cand_index`` and
``cand_features`` (``VecEnv(..., candidates=True)``) it returns one action index per
row. The Rust ``model`` policy runs the same file and the same arithmetic.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from .._core import ENV_N_FEATURES
from ..errors import InvalidArgumentError

_KEYS = ("mean", "std", "w1", "b1", "w2", "b2", "w3", "b3")
#: Scores this close to the best count as equal: the first such candidate is played (the
#: Rust ``model`` policy's rule, so that equal candidates resolve alike in both).
TIE = 1e-3


def shipped_path() -> Path:
    """The path of the shipped weights (package data ``majiang/models/gb.npz``)."""
    return Path(str(resources.files("majiang") / "models" / "gb.npz"))


class ModelPolicy:
    """A batched policy scoring candidate actions with a two-layer MLP (numpy only).

    ``candidates = True`` tells an environment to hand it ``cand_index`` and
    ``cand_features``; ``scores(features)`` gives the raw scores of feature rows and
    ``__call__(batch)`` the best legal action of each row (the first within :data:`TIE`
    of the best, as the Rust ``model`` policy plays), or with ``sample=True`` a draw from
    the softmax of the scores.
    """

    candidates = True
    features = "v1"

    def __init__(self, weights: dict[str, np.ndarray], *, name: str = "model") -> None:
        missing = [k for k in _KEYS if k not in weights]
        if missing:
            raise InvalidArgumentError(f"model weights: no array {', '.join(missing)}")
        self.w = {k: np.asarray(weights[k], np.float32) for k in _KEYS}
        f = ENV_N_FEATURES
        w1, w2, w3 = self.w["w1"], self.w["w2"], self.w["w3"]
        if (
            self.w["mean"].shape != (f,)
            or self.w["std"].shape != (f,)
            or w1.ndim != 2
            or w1.shape[0] != f
            or w2.ndim != 2
            or w2.shape[0] != w1.shape[1]
            or w3.size != w2.shape[1]
            or self.w["b3"].size != 1
        ):
            raise InvalidArgumentError(
                f"model weights: shapes do not chain ({f} features): "
                + ", ".join(f"{k} {self.w[k].shape}" for k in _KEYS)
            )
        self.w["w3"] = w3.reshape(-1)
        self.name = name

    @classmethod
    def load(cls, path: str | Path | None = None) -> ModelPolicy:
        """Reads a weights file (the shipped one when `path` is None). The policy is named
        ``model`` (the built-in bot these weights are) or after the file's stem."""
        p = shipped_path() if path is None else Path(path)
        try:
            with np.load(p) as z:
                return cls({k: z[k] for k in z.files}, name="model" if path is None else p.stem)
        except (OSError, ValueError) as e:
            raise InvalidArgumentError(f"cannot read model weights {p}: {e}") from None

    def choose(self, features: np.ndarray) -> int:
        """The row of the candidate played among `features` ``(n, ENV_N_FEATURES)``."""
        s = self.scores(features)
        return int(np.argmax(s >= s.max() - TIE))

    def scores(self, features: np.ndarray) -> np.ndarray:
        """The score of each feature row (``(..., ENV_N_FEATURES)`` -> ``(...)``)."""
        w = self.w
        z = (np.asarray(features, np.float32) - w["mean"]) / w["std"]
        h = np.maximum(z @ w["w1"] + w["b1"], 0)
        h = np.maximum(h @ w["w2"] + w["b2"], 0)
        return h @ w["w3"] + w["b3"][0]

    def __call__(
        self, batch: dict[str, Any], *, sample: bool = False, rng: np.random.Generator | None = None
    ) -> np.ndarray:
        """One action index per row of ``batch["cand_index"]`` (the best legal action, or
        with `sample` a draw from the softmax of the scores)."""
        ci = np.asarray(batch["cand_index"])
        s = self.scores(batch["cand_features"])
        s = np.where(ci >= 0, s, -np.inf)
        if sample:
            rng = rng or np.random.default_rng()
            p = np.exp(s - s.max(1, keepdims=True))
            p /= p.sum(1, keepdims=True)
            u = rng.random(len(ci))[:, None]
            pick = np.minimum((np.cumsum(p, 1) < u).sum(1), (ci >= 0).sum(1) - 1)
        else:
            pick = (s >= s.max(1, keepdims=True) - TIE).argmax(1)
        return ci[np.arange(len(ci)), pick].astype(np.int64)
