"""Train the model bot end to end on CPU with numpy: imitation of ``expert`` on the
features of encoding v2, policy-gradient fine-tuning against three ``efficiency`` bots,
duplicate evaluation on 10,000 walls.

    nice -n 10 python examples/train_model.py --out gb.npz [--decisions 400000]
        [--epochs 8] [--ppo-iters 30] [--league-iters 0] [--walls 10000] [--log curve.json]

The model (``majiang.bots.ModelBot``, the built-in ``model``) scores each legal action
from the ``ENV_N_FEATURES`` features of the position after it (``VecEnv(...,
candidates=True)``, ``majiang.env.action_features``): the best fan plan's value and
distance after the action, the unseen copies of the tiles it can use, shanten per form,
the learned deal-in chance of the tile it gives away, the opponents' ready chances, ...
(docs/encoding.md). A softmax over the scores of the legal actions is the policy.

1. **Data**: ``VecEnv`` tables where the learning seat plays ``expert`` against three
   ``efficiency`` bots; every decision with more than one legal action is kept (its
   candidates' features and the position of the expert's choice), pass decisions
   included.
2. **Imitation**: a two-layer MLP (ReLU) scoring each candidate, trained with Adam on the
   listwise cross-entropy (the expert's choice against the other legal actions).
3. **Fine-tuning** (PPO, clipped ratio): the model plays against three ``efficiency``
   bots, sampling from its softmax; the advantage of a decision is the hand's score
   change minus a running baseline, normalised per batch.
   With ``--league-iters N`` a further stage (``--init PATH`` starts there from saved
   weights): the same update on two sources at once, half the tables against three
   ``efficiency`` bots and half in self-play against frozen checkpoints of the model (the
   starting weights, then a snapshot every ``--league-every`` iterations; each hand draws
   the learning seat and the checkpoint), each source with its own baseline.
4. **Evaluation**: duplicate (each wall played four times, the model in each seat) on
   ``--walls`` walls against three ``efficiency`` bots, with ``majiang.env.evaluate``:
   the mean score a hand and its 95% interval (walls as samples); after the league
   stage also against three copies of the shipped model (``opponents="model"``). A stage
   whose weights score lower than the best so far on the check walls is not kept.

Everything runs on the CPU; the weights file is written with ``np.savez`` in the format
``ModelBot`` and the Rust ``model`` policy read.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from majiang.env import VecEnv, evaluate
from majiang.env.model import ModelPolicy

F_HIDDEN = 64


def collect(tables: int, decisions: int, seed: int, threads: int | None):
    """Candidate features (rows), decision offsets and the expert's choice per decision."""
    env = VecEnv(
        "gb",
        tables,
        opponents="efficiency",
        expert="expert",
        candidates=True,
        seed=seed,
        threads=threads,
    )
    feats, counts, labels = [], [], []
    total = 0
    while total < decisions:
        y = env.expert_actions()
        ci = env.cand_index
        n = (ci >= 0).sum(1)
        keep = n > 1
        pos = (ci == y[:, None]).argmax(1)
        cf = env.cand_features
        for i in np.flatnonzero(keep):
            feats.append(cf[i, : n[i]].copy())
        counts.append(n[keep])
        labels.append(pos[keep])
        total += int(keep.sum())
        env.step(y)
    return np.concatenate(feats), np.concatenate(counts), np.concatenate(labels)


class Adam:
    def __init__(self, params: dict[str, np.ndarray], lr: float):
        self.lr = lr
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}
        self.t = 0

    def step(self, params: dict[str, np.ndarray], grads: dict[str, np.ndarray]) -> None:
        self.t += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            mh = self.m[k] / (1 - 0.9**self.t)
            vh = self.v[k] / (1 - 0.999**self.t)
            params[k] -= self.lr * mh / (np.sqrt(vh) + 1e-8)


def forward(p: dict[str, np.ndarray], x: np.ndarray):
    z = (x - p["mean"]) / p["std"]
    h1 = np.maximum(z @ p["w1"] + p["b1"], 0)
    h2 = np.maximum(h1 @ p["w2"] + p["b2"], 0)
    s = h2 @ p["w3"] + p["b3"][0]
    return s, (z, h1, h2)


def backward(p, cache, ds):
    z, h1, h2 = cache
    g = {"w3": h2.T @ ds, "b3": np.array([ds.sum()], np.float32)}
    dh2 = np.outer(ds, p["w3"]) * (h2 > 0)
    g["w2"] = h1.T @ dh2
    g["b2"] = dh2.sum(0)
    dh1 = (dh2 @ p["w2"].T) * (h1 > 0)
    g["w1"] = z.T @ dh1
    g["b1"] = dh1.sum(0)
    return g


def segment_softmax(s: np.ndarray, starts: np.ndarray) -> np.ndarray:
    mx = np.maximum.reduceat(s, starts)
    seg = np.repeat(np.arange(len(starts)), np.diff(np.append(starts, len(s))))
    e = np.exp(s - mx[seg])
    return e / np.add.reduceat(e, starts)[seg]


def init_params(x: np.ndarray, seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    f = x.shape[1]
    std = x.std(0)
    std[std < 1e-3] = 1.0
    he = lambda a, b: (rng.standard_normal((a, b)) * np.sqrt(2 / a)).astype(np.float32)  # noqa: E731
    return {
        "mean": x.mean(0).astype(np.float32),
        "std": std.astype(np.float32),
        "w1": he(f, F_HIDDEN),
        "b1": np.zeros(F_HIDDEN, np.float32),
        "w2": he(F_HIDDEN, F_HIDDEN),
        "b2": np.zeros(F_HIDDEN, np.float32),
        "w3": (rng.standard_normal(F_HIDDEN) * 0.01).astype(np.float32),
        "b3": np.zeros(1, np.float32),
    }


TRAINED = ("w1", "b1", "w2", "b2", "w3", "b3")


def imitation(x, counts, labels, epochs: int, seed: int, log: list):
    """Listwise cross-entropy on the expert's choices; returns the parameters."""
    rng = np.random.default_rng(seed)
    offsets = np.concatenate([[0], np.cumsum(counts)])
    n = len(counts)
    hold = rng.random(n) < 0.05
    train_idx = np.flatnonzero(~hold)
    p = init_params(x, seed)
    opt = Adam({k: p[k] for k in TRAINED}, 2e-3)
    batch = 512
    for ep in range(epochs):
        t0 = time.time()
        rng.shuffle(train_idx)
        loss_sum = 0.0
        for b in range(0, len(train_idx), batch):
            d = np.sort(train_idx[b : b + batch])
            rows = np.concatenate([np.arange(offsets[i], offsets[i + 1]) for i in d])
            starts = np.concatenate([[0], np.cumsum(counts[d])[:-1]])
            s, cache = forward(p, x[rows])
            prob = segment_softmax(s, starts)
            target = starts + labels[d]
            loss_sum -= np.log(prob[target] + 1e-9).sum()
            ds = prob.copy()
            ds[target] -= 1.0
            ds /= len(d)
            g = backward(p, cache, ds.astype(np.float32))
            opt.step(p, g)
        if ep == epochs - 2:
            opt.lr *= 0.3
        acc = agreement(p, x, counts, labels, offsets, np.flatnonzero(hold))
        entry = {
            "stage": "imitation",
            "epoch": ep + 1,
            "train_loss": float(loss_sum / len(train_idx)),
            "heldout_agreement": acc,
            "seconds": time.time() - t0,
        }
        log.append(entry)
        print(json.dumps(entry), flush=True)
    return p


def agreement(p, x, counts, labels, offsets, idx) -> float:
    hits = 0
    for b in range(0, len(idx), 4096):
        d = idx[b : b + 4096]
        rows = np.concatenate([np.arange(offsets[i], offsets[i + 1]) for i in d])
        starts = np.concatenate([[0], np.cumsum(counts[d])[:-1]])
        s, _ = forward(p, x[rows])
        mx = np.maximum.reduceat(s, starts)
        seg = np.repeat(np.arange(len(d)), counts[d])
        first = np.full(len(d), -1)
        hit = np.flatnonzero(s >= mx[seg])
        # first maximal candidate of each decision
        order = np.unique(seg[hit], return_index=True)[1]
        first[seg[hit][order]] = hit[order] - starts[seg[hit][order]]
        hits += int((first == labels[d]).sum())
    return hits / max(len(idx), 1)


def sample(p, ci: np.ndarray, cf: np.ndarray, rng: np.random.Generator):
    """Draws one candidate per row from the softmax of the model's scores: the position
    chosen, its probability and the number of legal candidates of each row."""
    n = (ci >= 0).sum(1)
    mask = ci >= 0
    s, _ = forward(p, cf[mask])
    full = np.full(ci.shape, -np.inf, np.float32)
    full[mask] = s
    full -= full.max(1, keepdims=True)
    prob = np.exp(full)
    prob /= prob.sum(1, keepdims=True)
    u = rng.random(len(ci))[:, None]
    pick = (np.cumsum(prob, 1) < u).sum(1).clip(0, n - 1)
    return pick, prob[np.arange(len(ci)), pick], n


class Rollout:
    """The learning policy's decisions with more than one legal action (candidate rows,
    their count, the position chosen and its probability, the hand it belongs to) and the
    final score of each finished hand, for one source of games."""

    def __init__(self, tables: int, p: dict[str, np.ndarray]) -> None:
        self.p = p
        self.rows: list[np.ndarray] = []
        self.counts: list[np.ndarray] = []
        self.chosen: list[np.ndarray] = []
        self.oldp: list[np.ndarray] = []
        self.hand: list[np.ndarray] = []
        self.rewards: dict[int, float] = {}
        self.hand_id = np.arange(tables)
        self.next_id = tables

    def add(self, rows: np.ndarray, ci: np.ndarray, cf: np.ndarray, rng) -> tuple:
        """Samples the policy at the tables `rows` (candidates `ci`, `cf` of those
        tables), records the decisions with a choice and returns the actions."""
        pick, prob, n = sample(self.p, ci, cf, rng)
        multi = np.flatnonzero(n > 1)
        for i in multi:
            self.rows.append(cf[i, : n[i]].copy())
        self.counts.append(n[multi])
        self.chosen.append(pick[multi])
        self.oldp.append(prob[multi])
        self.hand.append(self.hand_id[rows[multi]])
        return ci[np.arange(len(ci)), pick].astype(np.int64)

    def finish(self, table: int, score: float) -> None:
        self.rewards[int(self.hand_id[table])] = score
        self.hand_id[table] = self.next_id
        self.next_id += 1

    def samples(self):
        """(rows, counts, chosen, old probabilities, final score, has a score) of every
        recorded decision."""
        hands = np.concatenate(self.hand)
        have = np.array([h in self.rewards for h in hands])
        ret = np.array([self.rewards.get(int(h), 0.0) for h in hands], np.float32)
        return (
            np.concatenate(self.rows),
            np.concatenate(self.counts),
            np.concatenate(self.chosen),
            np.concatenate(self.oldp),
            ret,
            have,
        )

    def mean_score(self) -> float:
        return float(np.mean(list(self.rewards.values()))) if self.rewards else 0.0


def play_bots(env: VecEnv, p, steps: int, rng) -> Rollout:
    """`steps` decisions of the learning seat at every table of `env` (built-in
    opponents)."""
    ro = Rollout(env.num_envs, p)
    every = np.arange(env.num_envs)
    for _ in range(steps):
        act = ro.add(every, env.cand_index, env.cand_features, rng)
        _, _, r, done = env.step(act)
        for i in np.flatnonzero(done):
            ro.finish(i, float(r[i]))
    return ro


class League:
    """Self-play tables (``VecEnv(seat="all")``) where one seat of each table is the
    learning policy and the three others a frozen checkpoint drawn from a pool, redrawn
    with the learning seat at every new hand."""

    def __init__(self, tables: int, seed: int, threads, rng) -> None:
        self.env = VecEnv("gb", tables, seat="all", candidates=True, seed=seed, threads=threads)
        self.pool: list[ModelPolicy] = []
        self.rng = rng
        self.learner = rng.integers(0, 4, tables)
        self.opponent = np.zeros(tables, np.int64)

    def snapshot(self, p, cap: int) -> None:
        """Adds a frozen copy of `p` to the pool (the oldest after the first is dropped
        beyond `cap`)."""
        self.pool.append(ModelPolicy({k: v.copy() for k, v in p.items()}))
        if len(self.pool) > cap:
            del self.pool[1]

    def play(self, p, steps: int) -> Rollout:
        """`steps` decisions at every table (about a quarter of them the learner's)."""
        env, rng = self.env, self.rng
        n = env.num_envs
        ro = Rollout(n, p)
        for _ in range(steps):
            ci, cf, seat = env.cand_index, env.cand_features, env.seat
            act = np.empty(n, np.int64)
            mine = seat == self.learner
            rows = np.flatnonzero(mine)
            if len(rows):
                act[rows] = ro.add(rows, ci[rows], cf[rows], rng)
            for k, q in enumerate(self.pool):
                j = np.flatnonzero(~mine & (self.opponent == k))
                if len(j):
                    act[j] = q({"cand_index": ci[j], "cand_features": cf[j]})
            _, _, r, done = env.step(act)
            for i in np.flatnonzero(done):
                ro.finish(i, float(r[i, self.learner[i]]))
                self.learner[i] = rng.integers(4)
                self.opponent[i] = rng.integers(len(self.pool))
        return ro


def update(p, opt: Adam, rollouts: list[tuple[Rollout, float]], rng) -> None:
    """Two passes of the clipped policy-gradient step over the decisions of `rollouts`
    (each with its baseline): the advantage of a decision is its hand's final score minus
    the baseline, normalised over the batch."""
    parts = [(ro.samples(), b) for ro, b in rollouts]
    x = np.concatenate([s[0] for s, _ in parts])
    counts = np.concatenate([s[1] for s, _ in parts])
    chosen = np.concatenate([s[2] for s, _ in parts])
    oldp = np.concatenate([s[3] for s, _ in parts])
    adv = np.concatenate([(s[4] - b) * s[5] for s, b in parts]).astype(np.float32)
    have = np.concatenate([s[5] for s, _ in parts])
    adv /= adv.std() + 1e-6
    offsets = np.concatenate([[0], np.cumsum(counts)])
    idx = np.flatnonzero(have)
    for _epoch in range(2):
        rng.shuffle(idx)
        for b in range(0, len(idx), 1024):
            d = np.sort(idx[b : b + 1024])
            rows = np.concatenate([np.arange(offsets[i], offsets[i + 1]) for i in d])
            starts = np.concatenate([[0], np.cumsum(counts[d])[:-1]])
            s, cache = forward(p, x[rows])
            prob = segment_softmax(s, starts)
            tgt = starts + chosen[d]
            ratio = prob[tgt] / oldp[d]
            a = adv[d]
            clipped = ((ratio > 1.2) & (a > 0)) | ((ratio < 0.8) & (a < 0))
            # d(-ratio * a)/d score = -a * ratio * (onehot - prob), zero where clipped.
            coef = np.where(clipped, 0.0, -a * ratio)
            seg = np.repeat(np.arange(len(d)), counts[d])
            ds = -coef[seg] * prob
            ds[tgt] += coef
            ds /= len(d)
            g = backward(p, cache, ds.astype(np.float32))
            opt.step(p, g)


def ppo(p, iters: int, tables: int, steps: int, seed: int, threads, log: list):
    """Clipped policy-gradient fine-tuning against three efficiency bots."""
    opt = Adam({k: p[k] for k in TRAINED}, 2e-4)
    env = VecEnv("gb", tables, opponents="efficiency", candidates=True, seed=seed, threads=threads)
    rng = np.random.default_rng(seed)
    baseline = 0.0
    for it in range(iters):
        t0 = time.time()
        ro = play_bots(env, p, steps, rng)
        mean_r = ro.mean_score()
        baseline = 0.9 * baseline + 0.1 * mean_r if it else mean_r
        update(p, opt, [(ro, baseline)], rng)
        entry = {
            "stage": "ppo",
            "iter": it + 1,
            "hands": len(ro.rewards),
            "mean_hand_score": mean_r,
            "seconds": time.time() - t0,
        }
        log.append(entry)
        print(json.dumps(entry), flush=True)
    return p


def league(p, iters: int, tables: int, steps: int, seed: int, threads, log: list, every: int):
    """Clipped policy-gradient fine-tuning against frozen checkpoints of the model: half
    the tables against three ``efficiency`` bots, half in self-play against a checkpoint
    from the pool (the starting weights, then a snapshot every `every` iterations)."""
    opt = Adam({k: p[k] for k in TRAINED}, 2e-4)
    rng = np.random.default_rng(seed)
    bots = VecEnv(
        "gb", tables // 2, opponents="efficiency", candidates=True, seed=seed, threads=threads
    )
    pool = League(tables - tables // 2, seed + 1, threads, rng)
    pool.snapshot(p, cap=8)
    base_b = base_p = 0.0
    for it in range(iters):
        t0 = time.time()
        ro_b = play_bots(bots, p, steps, rng)
        ro_p = pool.play(p, 4 * steps)
        mb, mp = ro_b.mean_score(), ro_p.mean_score()
        base_b = 0.9 * base_b + 0.1 * mb if it else mb
        base_p = 0.9 * base_p + 0.1 * mp if it else mp
        update(p, opt, [(ro_b, base_b), (ro_p, base_p)], rng)
        if (it + 1) % every == 0:
            pool.snapshot(p, cap=8)
        entry = {
            "stage": "league",
            "iter": it + 1,
            "hands_vs_efficiency": len(ro_b.rewards),
            "mean_vs_efficiency": mb,
            "hands_vs_checkpoints": len(ro_p.rewards),
            "mean_vs_checkpoints": mp,
            "pool": len(pool.pool),
            "seconds": time.time() - t0,
        }
        log.append(entry)
        print(json.dumps(entry), flush=True)
    return p


def save(p: dict[str, np.ndarray], path: str) -> None:
    np.savez(path, **{k: v.astype(np.float32) for k, v in p.items()})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="gb.npz")
    ap.add_argument("--init", default=None, help="start from these weights (no imitation)")
    ap.add_argument("--decisions", type=int, default=400_000)
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--ppo-iters", type=int, default=30)
    ap.add_argument("--ppo-steps", type=int, default=64)
    ap.add_argument("--league-iters", type=int, default=0)
    ap.add_argument("--league-every", type=int, default=10)
    ap.add_argument("--tables", type=int, default=512)
    ap.add_argument("--walls", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--log", default=None)
    a = ap.parse_args()
    log: list[dict] = []
    times: dict[str, float] = {}
    check = min(a.walls, 2000)

    def stage_eval(path: str, after: str, **extra):
        t = time.time()
        r = evaluate(ModelPolicy.load(path), walls=check, seed=a.seed + 100)
        times[f"eval_{after}"] = time.time() - t
        log.append({"stage": "eval", "after": after, **r.summary(), **extra})
        print(json.dumps(log[-1]), flush=True)
        return r

    if a.init:
        with np.load(a.init) as z:
            p = {k: z[k].astype(np.float32) for k in z.files}
        save(p, a.out)
        best = stage_eval(a.out, "init")
    else:
        t = time.time()
        x, counts, labels = collect(a.tables, a.decisions, a.seed, a.threads)
        times["collect"] = time.time() - t
        print(f"collected {len(counts)} decisions, {len(x)} candidates in {times['collect']:.0f} s")
        t = time.time()
        p = imitation(x, counts, labels, a.epochs, a.seed, log)
        times["imitation"] = time.time() - t
        save(p, a.out)
        del x
        best = stage_eval(a.out, "imitation")
    if a.ppo_iters:
        t = time.time()
        p = ppo(p, a.ppo_iters, a.tables, a.ppo_steps, a.seed + 7, a.threads, log)
        times["ppo"] = time.time() - t
        tmp = a.out + ".ppo.npz"
        save(p, tmp)
        r = stage_eval(tmp, "ppo")
        if r.mean > best.mean:
            save(p, a.out)
            best = r
    if a.league_iters:
        with np.load(a.out) as z:
            p = {k: z[k].astype(np.float32) for k in z.files}
        t = time.time()
        p = league(
            p, a.league_iters, a.tables, a.ppo_steps, a.seed + 11, a.threads, log, a.league_every
        )
        times["league"] = time.time() - t
        tmp = a.out + ".league.npz"
        save(p, tmp)
        t = time.time()
        start = evaluate(ModelPolicy.load(tmp), walls=check, opponents="model", seed=a.seed + 200)
        times["eval_vs_model"] = time.time() - t
        log.append({"stage": "eval", "after": "league", **start.summary()})
        print(json.dumps(log[-1]), flush=True)
        r = stage_eval(tmp, "league")
        if r.mean > best.mean:
            save(p, a.out)
            best = r
    t = time.time()
    final = evaluate(ModelPolicy.load(a.out), walls=a.walls, seed=2026)
    times["eval_final"] = time.time() - t
    log.append({"stage": "final", **final.summary(), "times": times})
    print(json.dumps(log[-1]), flush=True)
    if a.log:
        with open(a.log, "w") as f:
            json.dump(log, f, indent=1)


if __name__ == "__main__":
    main()
