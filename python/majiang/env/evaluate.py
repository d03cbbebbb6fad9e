"""Duplicate evaluation of a batched policy at batch speed (``majiang.env.evaluate``)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._core import ENV_STAY, VecEnv
from ..errors import InvalidArgumentError


@dataclass
class Evaluation:
    """The result of :func:`evaluate`: the policy's score per wall (the mean of its four
    seats on that wall) and the summary figures."""

    #: The mean score of the policy's seat on each wall, over its four seats.
    per_wall: np.ndarray
    #: Every hand's score of the policy's seat, ``(walls, 4)`` (column: its seat).
    per_hand: np.ndarray
    #: Decisions the policy made.
    decisions: int
    #: Wall-clock seconds.
    seconds: float
    opponents: list[str] = field(default_factory=list)

    @property
    def walls(self) -> int:
        return len(self.per_wall)

    @property
    def mean(self) -> float:
        """Mean score a hand."""
        return float(self.per_wall.mean())

    @property
    def ci95(self) -> tuple[float, float]:
        """The 95% interval of the mean (normal approximation, walls as samples)."""
        n = len(self.per_wall)
        h = 1.96 * float(self.per_wall.std(ddof=1)) / math.sqrt(n) if n > 1 else math.inf
        return (self.mean - h, self.mean + h)

    def summary(self) -> dict[str, Any]:
        lo, hi = self.ci95
        return {
            "walls": self.walls,
            "hands": int(self.per_hand.size),
            "mean": round(self.mean, 4),
            "ci95": [round(lo, 4), round(hi, 4)],
            "decisions": self.decisions,
            "seconds": round(self.seconds, 2),
            "opponents": self.opponents,
        }


def evaluate(
    policy: Callable[[dict[str, np.ndarray]], np.ndarray],
    *,
    walls: int = 1000,
    seed: int = 0,
    rules: Any = "gb",
    opponents: str | list[str] = "efficiency",
    threads: int | None = None,
) -> Evaluation:
    """Plays `policy` in duplicate against built-in `opponents`: each of `walls` walls
    (hand 0 of the match that table `i` of a ``VecEnv`` seeded `seed` deals) four times,
    the policy in seat 0, 1, 2 and 3 (the opponents keep their seeds, so a wall's four
    hands differ only by where the policy sits). All tables of one seating step together
    in Rust; the policy is called once per step with the batch of every table.

    `policy` is a batched policy: called with a dict of arrays (``"observation"`` ``(N,
    C, 34)``, ``"action_mask"`` ``(N, A)``, and with ``policy.candidates`` true
    ``"cand_index"`` and ``"cand_features"``; ``policy.features`` ``"v2"`` asks for the
    GB planes), it returns ``N`` legal action indices. Hands in which the policy's seat
    has no decision (a win on the deal) count with their score like any other.
    """
    import time

    if not isinstance(walls, int) or isinstance(walls, bool) or walls < 2:
        raise InvalidArgumentError(f"walls must be an int of at least 2, got {walls!r}")
    cand = bool(getattr(policy, "candidates", False))
    feats = getattr(policy, "features", "v1")
    t0 = time.time()
    per_hand = np.zeros((walls, 4), np.float64)
    decisions = 0
    for seat in range(4):
        env = VecEnv(
            rules,
            walls,
            opponents=opponents,
            seat=seat,
            episode="hand",
            hands=1,
            seed=seed,
            threads=threads,
            autoreset=False,
            record=True,
            candidates=cand,
            features=feats,
        )
        pending = np.ones(walls, bool)
        while pending.any():
            batch: dict[str, Any] = {"observation": env.obs, "action_mask": env.mask}
            if cand:
                batch["cand_index"] = env.cand_index
                batch["cand_features"] = env.cand_features
            act = np.asarray(policy(batch), np.int64)
            # A table whose hand is over stays as it is (its row asks nothing).
            act = np.where(pending, act, ENV_STAY)
            decisions += int(pending.sum())
            _, _, _, done = env.step(act)
            pending &= ~done
        for w in range(walls):
            first = env.finished_hands(w)[0]
            per_hand[w, seat] = first["scores_after"][seat] - first["scores_before"][seat]
    names = [opponents] * 3 if isinstance(opponents, str) else list(opponents)
    return Evaluation(
        per_wall=per_hand.mean(1),
        per_hand=per_hand,
        decisions=decisions,
        seconds=time.time() - t0,
        opponents=names,
    )
