"""Per-seat trajectories of self-play, ready for PPO (``majiang.env.SelfPlayRollout``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InvalidArgumentError


@dataclass
class Trajectory:
    """One seat's decisions in one episode of one table, in order: ``observation``
    ``(T, C, 34)``, ``action_mask`` ``(T, A)``, ``action`` ``(T,)``, ``logp`` and
    ``value`` ``(T,)`` (what the policy gave when it acted, NaN when not given),
    ``reward`` ``(T,)`` (the seat's score change, on the decision before it), ``table`` and
    ``seat``."""

    table: int
    seat: int
    observation: np.ndarray
    action_mask: np.ndarray
    action: np.ndarray
    logp: np.ndarray
    value: np.ndarray
    reward: np.ndarray

    def __len__(self) -> int:
        return len(self.action)

    def advantages(self, gamma: float = 1.0, lam: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
        """Generalised advantage estimates and returns (the episode ends after the last
        decision, so its value is 0), from ``value`` (0 where NaN)."""
        v = np.nan_to_num(self.value.astype(np.float64))
        adv = np.zeros(len(self), np.float64)
        last = 0.0
        for t in range(len(self) - 1, -1, -1):
            nxt = v[t + 1] if t + 1 < len(self) else 0.0
            delta = self.reward[t] + gamma * nxt - v[t]
            last = delta + gamma * lam * last
            adv[t] = last
        return adv.astype(np.float32), (adv + v).astype(np.float32)


class SelfPlayRollout:
    """Splits the steps of a self-play ``VecEnv(seat="all")`` (one decision of the acting
    seat of each table per step) into per-seat trajectories.

    Call :meth:`add` before each ``step`` with the rows the policy acted on (the env's
    ``obs``, ``mask``, ``seat``, the chosen actions and optionally their log-probabilities
    and values), then :meth:`end` with the step's ``reward`` ``(N, 4)`` and ``done``: a
    hand's score change goes to each seat's last decision, and at the end of an episode
    each seat's trajectory is closed and handed out by :meth:`take`."""

    def __init__(self, num_envs: int) -> None:
        if num_envs < 1:
            raise InvalidArgumentError(f"num_envs must be at least 1, got {num_envs}")
        self.num_envs = num_envs
        self._open: dict[tuple[int, int], dict[str, list[Any]]] = {}
        self._done: list[Trajectory] = []

    def add(
        self,
        obs: np.ndarray,
        mask: np.ndarray,
        seat: np.ndarray,
        action: np.ndarray,
        logp: np.ndarray | None = None,
        value: np.ndarray | None = None,
    ) -> None:
        """Records one decision per table (rows of the env's arrays, copied)."""
        n = self.num_envs
        if len(action) != n or len(seat) != n:
            raise InvalidArgumentError(f"add takes one row per table ({n})")
        nan = np.full(n, np.nan, np.float32)
        lp = nan if logp is None else np.asarray(logp, np.float32)
        va = nan if value is None else np.asarray(value, np.float32)
        for i in range(n):
            tr = self._open.setdefault(
                (i, int(seat[i])),
                {"obs": [], "mask": [], "action": [], "logp": [], "value": [], "reward": []},
            )
            tr["obs"].append(obs[i].copy())
            tr["mask"].append(mask[i].copy())
            tr["action"].append(int(action[i]))
            tr["logp"].append(float(lp[i]))
            tr["value"].append(float(va[i]))
            tr["reward"].append(0.0)

    def end(self, reward: np.ndarray, done: np.ndarray) -> None:
        """Hands out the step's rewards (``(N, 4)``: every seat's score change) and closes
        the trajectories of the tables whose episode ended."""
        reward = np.asarray(reward)
        if reward.shape != (self.num_envs, 4):
            raise InvalidArgumentError(
                f"reward must be (num_envs, 4), a self-play env's, got {reward.shape}"
            )
        for i in np.flatnonzero(reward.any(1) | np.asarray(done)):
            for s in range(4):
                tr = self._open.get((int(i), s))
                if tr is not None and tr["reward"]:
                    tr["reward"][-1] += float(reward[i, s])
            if done[i]:
                for s in range(4):
                    tr = self._open.pop((int(i), s), None)
                    if tr is not None and tr["action"]:
                        self._done.append(
                            Trajectory(
                                table=int(i),
                                seat=s,
                                observation=np.stack(tr["obs"]),
                                action_mask=np.stack(tr["mask"]),
                                action=np.asarray(tr["action"], np.int64),
                                logp=np.asarray(tr["logp"], np.float32),
                                value=np.asarray(tr["value"], np.float32),
                                reward=np.asarray(tr["reward"], np.float32),
                            )
                        )

    def take(self) -> list[Trajectory]:
        """The trajectories closed since the last call."""
        out, self._done = self._done, []
        return out
