"""Imitation learning with numpy only: a small MLP learns the efficiency policy from
``VecEnv`` data, then plays duplicate games against the random and efficiency bots.

    python examples/imitation.py [--tables 128] [--steps 800] [--epochs 6] [--walls 250]

1. Data: ``VecEnv`` tables where one seat plays the efficiency policy (``expert``) against
   three efficiency opponents; at every step the seat's planes, mask and the expert's
   action index are kept (the tables run in Rust across the cores).
2. Model: planes scaled per plane to [0, 1], one hidden layer (ReLU), a softmax over the
   legal actions only (illegal logits masked out), trained with Adam on the cross-entropy.
3. Evaluation: ``majiang.arena`` in duplicate (each wall played four times with the
   seats rotated) of the model, a Python bot, against three ``random`` bots, then three
   ``efficiency`` bots; the teacher plays the same walls for reference. Reported: the
   mean score per hand of the seat under test with its 95% interval, and of its
   opponents.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import majiang as mj
from majiang.env import N_ACTIONS, VecEnv, encode, index_to_action, legal_mask


def collect(rules: str, tables: int, steps: int, seed: int):
    """(planes, masks, expert actions) of `steps` steps of `tables` tables."""
    env = VecEnv(rules, tables, opponents="efficiency", expert="efficiency", seed=seed)
    xs, ms, ys = [], [], []
    for _ in range(steps):
        y = env.expert_actions()
        xs.append(env.obs.copy())
        ms.append(env.mask.copy())
        ys.append(y)
        env.step(y)
    return np.concatenate(xs), np.concatenate(ms), np.concatenate(ys)


class MLP:
    """planes -> hidden (ReLU) -> logits over the action space, masked softmax."""

    def __init__(self, scale: np.ndarray, hidden: int, seed: int):
        rng = np.random.default_rng(seed)
        self.scale = scale.astype(np.float32)  # per-plane divisor, shape (C, 1)
        n_in = scale.shape[0] * 34
        self.params = {
            "w1": (rng.standard_normal((n_in, hidden)) * np.sqrt(2 / n_in)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "w2": (rng.standard_normal((hidden, N_ACTIONS)) * np.sqrt(1 / hidden)).astype(
                np.float32
            ),
            "b2": np.zeros(N_ACTIONS, np.float32),
        }

    def features(self, planes: np.ndarray) -> np.ndarray:
        return (planes / self.scale).reshape(len(planes), -1).astype(np.float32)

    def forward(self, x: np.ndarray, mask: np.ndarray):
        p = self.params
        h = np.maximum(x @ p["w1"] + p["b1"], 0)
        logits = h @ p["w2"] + p["b2"]
        logits = np.where(mask > 0, logits, -1e9)
        logits -= logits.max(axis=1, keepdims=True)
        prob = np.exp(logits)
        prob /= prob.sum(axis=1, keepdims=True)
        return h, prob

    def grads(self, x, mask, y):
        p = self.params
        h, prob = self.forward(x, mask)
        n = len(y)
        loss = -np.log(prob[np.arange(n), y] + 1e-12).mean()
        d = prob
        d[np.arange(n), y] -= 1
        d /= n
        g = {"w2": h.T @ d, "b2": d.sum(0)}
        dh = (d @ p["w2"].T) * (h > 0)
        g["w1"] = x.T @ dh
        g["b1"] = dh.sum(0)
        return loss, g

    def act(self, planes: np.ndarray, mask: np.ndarray) -> np.ndarray:
        _, prob = self.forward(self.features(planes), mask)
        return prob.argmax(axis=1)


def train(model: MLP, x, m, y, epochs: int, batch: int = 256, lr: float = 1e-3, seed: int = 0):
    rng = np.random.default_rng(seed)
    mom = {k: np.zeros_like(v) for k, v in model.params.items()}
    vel = {k: np.zeros_like(v) for k, v in model.params.items()}
    t = 0
    for epoch in range(epochs):
        order = rng.permutation(len(y))
        losses = []
        for i in range(0, len(y), batch):
            j = order[i : i + batch]
            loss, g = model.grads(model.features(x[j]), m[j], y[j])
            losses.append(loss)
            t += 1
            for k, grad in g.items():
                mom[k] = 0.9 * mom[k] + 0.1 * grad
                vel[k] = 0.999 * vel[k] + 0.001 * grad * grad
                step = lr * (mom[k] / (1 - 0.9**t)) / (np.sqrt(vel[k] / (1 - 0.999**t)) + 1e-8)
                model.params[k] -= step.astype(np.float32)
        print(f"  epoch {epoch + 1}: loss {np.mean(losses):.3f}")


class ModelBot:
    """A bot that plays the model's most likely legal action (``act(observation)``, the
    interface ``mj.Game`` and ``mj.arena`` use)."""

    name = "model"

    def __init__(self, model: MLP):
        self.model = model
        self._planes = np.zeros((1, mj.env.N_PLANES, 34), np.uint8)
        self._mask = np.zeros((1, N_ACTIONS), np.uint8)

    def act(self, observation):
        encode(observation, self._planes[0])
        legal_mask(observation, self._mask[0])
        return index_to_action(int(self.model.act(self._planes, self._mask)[0]))


def duplicate(rules: str, bot, opponent: str, walls: int, seed: int):
    """Mean score per hand (with its 95% interval) of ``bot`` and the mean of its three
    ``opponent`` bots, over ``walls`` walls each played four times with the seats
    rotated."""
    result = mj.arena([bot, opponent, opponent, opponent], hands=4 * walls, seed=seed, rules=rules)
    rows = result.summary()
    return rows[0]["mean_score"], rows[0]["ci95"], sum(r["mean_score"] for r in rows[1:]) / 3


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="gb")
    ap.add_argument("--tables", type=int, default=128)
    ap.add_argument("--steps", type=int, default=800)
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--walls", type=int, default=250)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    t0 = time.perf_counter()
    x, m, y = collect(args.rules, args.tables, args.steps, args.seed)
    print(f"collected {len(y)} decisions in {time.perf_counter() - t0:.1f}s")
    n_test = len(y) // 10
    scale = np.maximum(x.max(axis=(0, 2)), 1).reshape(-1, 1)
    model = MLP(scale, args.hidden, args.seed)
    t0 = time.perf_counter()
    train(model, x[n_test:], m[n_test:], y[n_test:], args.epochs)
    print(f"trained in {time.perf_counter() - t0:.1f}s")
    acc = (model.act(x[:n_test], m[:n_test]) == y[:n_test]).mean()
    print(f"held-out agreement with the expert: {acc:.1%}")

    t0 = time.perf_counter()
    for opponent in ("random", "efficiency"):
        for who, bot in (("model", ModelBot(model)), ("teacher", "efficiency")):
            me, (lo, hi), them = duplicate(args.rules, bot, opponent, args.walls, 1000)
            print(
                f"{who:8s} vs 3 {opponent:10s}: {me:+7.2f} per hand [{lo:+.2f}, {hi:+.2f}] "
                f"(opponents {them:+7.2f}), {4 * args.walls} hands"
            )
    print(f"evaluated in {time.perf_counter() - t0:.1f}s")


if __name__ == "__main__":
    main()
