"""The standard vector API, encoding v2 (GB planes, action features, oracle view, action
history), the model bot and duplicate evaluation of a batched policy."""

from __future__ import annotations

import copy
import pickle
import subprocess
import sys

import numpy as np
import pytest

import majiang as mj
from majiang import _core
from majiang.env import (
    MAX_CANDIDATES,
    MAX_TOKENS,
    N_ACTIONS,
    N_FEATURES,
    N_GB_PLANES,
    N_ORACLE_PLANES,
    N_PLANES,
    ModelPolicy,
    VecEnv,
    action_features,
    action_to_index,
    evaluate,
    gb_planes,
    index_to_action,
)

gym = pytest.importorskip("gymnasium", reason="gymnasium (the rl extra) is needed")

from majiang.env import VectorEnv  # noqa: E402


def _random(obs: dict, rng: np.random.Generator) -> np.ndarray:
    m = obs["action_mask"].astype(bool)
    noise = rng.random(m.shape) * m
    return noise.argmax(1)


def test_vector_env_follows_gymnasium():
    env = VectorEnv(num_envs=6, rules="gb", opponents="efficiency", seed=3)
    assert isinstance(env, gym.vector.VectorEnv) and env.num_envs == 6
    obs, infos = env.reset(seed=3)
    assert infos == {}
    assert env.observation_space.contains(obs)
    assert obs["observation"].shape == (6, N_PLANES, 34) and obs["action_mask"].dtype == np.int8
    assert env.single_action_space.n == N_ACTIONS and env.action_space.shape == (6,)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(300):
        obs, rew, term, trunc, info = env.step(_random(obs, rng))
        assert rew.dtype == np.float32 and rew.shape == (6,) and not trunc.any()
        assert env.observation_space.contains(obs)
        if term.any():
            ended += int(term.sum())
            assert (info["_final_obs"] == term).all()
            for i in np.flatnonzero(term):
                final = info["final_obs"][i]
                assert env.single_observation_space.contains(final)
                assert not final["action_mask"].any(), "the final view has nothing to decide"
                assert obs["action_mask"][i].any(), "the new episode starts at a decision"
        else:
            assert "final_obs" not in info
    assert ended > 0


def test_next_step_autoreset_restarts_on_the_following_step():
    env = VectorEnv(num_envs=4, seed=5, autoreset_mode="next_step")
    assert env.metadata["autoreset_mode"] == gym.vector.AutoresetMode.NEXT_STEP
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(1)
    seen = 0
    for _ in range(400):
        obs, rew, term, _, _ = env.step(_random(obs, rng))
        if term.any():
            i = int(np.flatnonzero(term)[0])
            assert not obs["action_mask"][i].any()
            # Its next step starts the next episode whatever its action: reward 0.
            acts = _random(obs, rng)
            acts[i] = 0
            obs, rew, term2, _, _ = env.step(acts)
            assert rew[i] == 0 and not term2[i] and obs["action_mask"][i].any()
            seen += 1
            if seen == 3:
                break
    assert seen == 3


def test_copies_and_pickles_continue_exactly():
    env = VectorEnv(num_envs=3, seed=9, features="v2")
    obs, _ = env.reset(seed=9)
    rng = np.random.default_rng(2)
    for _ in range(25):
        obs, *_ = env.step(_random(obs, rng))
    twins = [copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
    for _ in range(40):
        a = _random(obs, rng)
        obs, rew, term, _, _ = env.step(a)
        for t in twins:
            o2, r2, t2, _, _ = t.step(a)
            assert (o2["observation"] == obs["observation"]).all() and (r2 == rew).all()
            assert (t2 == term).all()
    single = mj.env.MahjongEnv("gb", opponents="efficiency")
    o, _ = single.reset(seed=4)
    for _ in range(10):
        o, *_ = single.step(int(np.flatnonzero(o["action_mask"])[0]))
    back = pickle.loads(pickle.dumps(single))
    for _ in range(10):
        a = int(np.flatnonzero(o["action_mask"])[-1])
        o, r, t, _, _ = single.step(a)
        o2, r2, t2, _, _ = back.step(a)
        assert (o["observation"] == o2["observation"]).all() and (r, t) == (r2, t2)
        if t:
            break


def test_one_key_convention_gym_ids_and_render_modes(capsys):
    import majiang.env  # noqa: F401  (registers the ids)

    for env_id, rules in mj.env.GYM_IDS.items():
        e = gym.make(env_id)
        assert e.unwrapped.rules.name == mj.RuleSet(rules).name
        o, _ = e.reset(seed=1)
        assert set(o) == {"observation", "action_mask"}
    v = gym.make_vec("majiang/Classic-v0", num_envs=2, vectorization_mode="vector_entry_point")
    assert isinstance(v, VectorEnv) and v.rules.name == "classic"
    aec = mj.env.MahjongAECEnv("gb")
    aec.reset(seed=1)
    assert set(aec.observe(aec.agent_selection)) >= {"observation", "action_mask"}
    h = mj.env.MahjongEnv("gb", render_mode="human")
    h.reset(seed=2)
    assert h.render() is None and "seat" in capsys.readouterr().out.lower()
    with pytest.raises(mj.InvalidArgumentError):
        mj.env.MahjongEnv("gb", render_mode="video")
    with pytest.raises(mj.InvalidArgumentError):
        VectorEnv(2, autoreset_mode="sometimes")


def _observations(rules: str, seeds: range, bots: str = "efficiency"):
    """Every decision's observation along hands played by built-in bots."""
    for seed in seeds:
        r = mj.Round(rules, seed, seed % 4, 0)
        pol = [_core.Policy(bots, seed=seed * 4 + s) for s in range(4)]
        while not r.is_over:
            s = r.pending[0]
            for q in r.pending:
                yield r, q, r.observation(q)
            r.apply(s, pol[s].choose(r.observation(s)))


def test_gb_planes_and_action_features_read_the_seat_s_own_view():
    n = 0
    for r, s, o in _observations("gb", range(6)):
        g = gb_planes(o)
        assert g.shape == (N_GB_PLANES, 34)
        hand = np.bincount(r.hand(s), minlength=42)[:34]
        full = hand.sum() % 3 == 2
        # Unseen copies never exceed what the seat cannot see; useful tiles (and waits among
        # them) only on a hand of 13 - 3k tiles.
        assert (g[0] <= 4 - np.minimum(hand, 4)).all()
        assert (g[2] <= g[1]).all()
        if full:
            assert not g[1].any()
        # The best plan's family holds the best plan's distance; no plan of a family out
        # of reach.
        best = int(g[11, 0]) - 1
        if g[8, 0] < 100:
            assert g[13, best] == g[8, 0] and g[14, best] == g[10, 0]
        assert not g[13, 9:].any() and not g[14, 9:].any()
        idx, feats = action_features(o)
        assert feats.shape == (len(idx), N_FEATURES) and np.isfinite(feats).all()
        want = sorted({action_to_index(a) for a in o.legal_actions})
        assert sorted(idx.tolist()) == want
        kinds = feats[:, 1:10].argmax(1)
        for k, i in zip(kinds, idx, strict=False):
            name = [
                "discard",
                "ready",
                "concealed_kong",
                "added_kong",
                "chow",
                "pung",
                "kong",
                "win",
                "pass",
            ][k]
            assert index_to_action(int(i)).kind == name
        n += 1
    assert n > 300


def test_the_env_rows_equal_the_observation_encodings():
    env = VecEnv("gb", 4, seed=11, features="v2", candidates=True, threads=1)
    assert env.obs.shape == (4, N_PLANES + N_GB_PLANES, 34)
    for _ in range(60):
        for i in range(4):
            o = env.round(i).observation(int(env.seat[i]))
            assert (env.obs[i, :N_PLANES] == mj.env.encode(o)).all()
            assert (env.obs[i, N_PLANES:] == gb_planes(o)).all()
            idx, feats = action_features(o)
            k = len(idx)
            assert (env.cand_index[i, :k] == idx).all() and (env.cand_index[i, k:] == -1).all()
            assert np.allclose(env.cand_features[i, :k], feats)
        env.step(env.sample_legal())


def test_the_oracle_view_holds_every_hand_and_the_next_draws():
    env = VecEnv("gb", 3, seed=2, oracle=True, history=True, threads=1)
    assert env.oracle.shape == (3, N_ORACLE_PLANES, 34) and env.tokens.shape == (3, MAX_TOKENS, 4)
    for _ in range(40):
        for i in range(3):
            r = env.round(i)
            me = int(env.seat[i])
            for k in range(3):
                other = (me + 1 + k) % 4
                want = np.bincount([t for t in r.hand(other) if t < 34], minlength=34)
                assert (env.oracle[i, k] == want).all()
            # The next four draws, one tile each (the Rust tests check which).
            assert all(env.oracle[i, 3 + j].sum() <= 1 for j in range(4))
        env.step(env.sample_legal())


def test_history_tokens_follow_the_hand_s_actions():
    env = VecEnv("gb", 2, seed=8, history=True, record=True, threads=1)
    for _ in range(120):
        for i in range(2):
            r = env.round(i)
            me = int(env.seat[i])
            ev = [
                e
                for e in r.events()
                if e["type"] in ("discard", "chow", "pung", "kong", "concealed_kong", "added_kong")
            ]
            toks = env.tokens[i]
            n = int((toks[:, 0] != 0).sum())
            assert n == len(ev)
            for (kind, actor, tile, other), e in zip(toks[:n], ev, strict=False):
                assert actor == (e["seat"] - me) % 4
                if e["type"] == "discard":
                    assert kind in (1, 2) and tile == e["tile"]
                elif e["type"] in ("chow", "pung", "kong"):
                    assert kind == {"chow": 3, "pung": 4, "kong": 5}[e["type"]]
                    assert tile == e["tile"] and other == (e["from"] - me) % 4
        env.step(env.sample_legal())
    drawn = env.tokens[:, :, 0] == 2
    assert drawn.any(), "some discards are the tile just drawn"


def test_model_bot_plays_the_shipped_weights_as_the_rust_model_policy():
    bot = mj.bots.ModelBot()
    rust = _core.Policy("model")
    agree = total = 0
    for _, _s, o in _observations("gb", range(4)):
        if len(o.legal_actions) < 2:
            continue
        total += 1
        agree += bot.act(o) == rust.choose(o)
    assert total > 100 and agree == total
    assert "model" in _core.policy_names()
    with pytest.raises(mj.InvalidArgumentError, match=r"built-in bots: .*\bmodel\b"):
        _core.Policy("no_such_bot")
    with pytest.raises(mj.MajiangError, match=r"built-in bots: .*\bmodel\b"):
        mj.arena(["no_such_bot", "efficiency", "efficiency", "efficiency"], hands=4, seed=1)
    r = mj.arena(["model", "efficiency", "efficiency", "efficiency"], hands=8, seed=1)
    assert r.scores.shape == (8, 4) and "model" in r.bots


def test_model_weights_are_checked():
    with pytest.raises(mj.InvalidArgumentError, match="no array"):
        ModelPolicy({"mean": np.zeros(N_FEATURES)})
    w = dict(np.load(mj.env.model.shipped_path()))
    w["w2"] = w["w2"][:3]
    with pytest.raises(mj.InvalidArgumentError, match="do not chain"):
        ModelPolicy(w)


def test_model_policy_names_the_bot_its_weights_are(tmp_path):
    assert ModelPolicy.load().name == "model"
    mine = tmp_path / "league-7.npz"
    np.savez(mine, **dict(np.load(mj.env.model.shipped_path())))
    assert ModelPolicy.load(mine).name == "league-7"
    r = mj.arena([mj.bots.PolicyBot(ModelPolicy.load()), "random", "random", "random"], hands=4)
    assert r.summary()[0]["bot"] == "model"


def test_evaluate_plays_each_wall_in_every_seat():
    pol = ModelPolicy.load()
    ev = evaluate(pol, walls=24, seed=3, threads=1)
    assert ev.per_hand.shape == (24, 4) and ev.walls == 24
    lo, hi = ev.ci95
    assert lo <= ev.mean <= hi and ev.decisions > 24 * 4 * 5
    again = evaluate(pol, walls=24, seed=3, threads=2)
    assert (again.per_hand == ev.per_hand).all(), "results depend on the seed alone"

    class Passive:
        candidates = True

        def __call__(self, batch):
            ci = batch["cand_index"]
            # The first candidate: the lowest discard, or a claim's first choice.
            return ci[:, 0].astype(np.int64)

    worse = evaluate(Passive(), walls=24, seed=3, threads=1)
    assert worse.per_hand.shape == (24, 4)
    with pytest.raises(mj.InvalidArgumentError):
        evaluate(pol, walls=1)


def test_model_policy_batches_sample_legal_actions():
    env = VecEnv("gb", 8, seed=1, candidates=True, threads=1)
    pol = ModelPolicy.load()
    rng = np.random.default_rng(0)
    for _ in range(50):
        batch = {"cand_index": env.cand_index, "cand_features": env.cand_features}
        a = pol(batch, sample=True, rng=rng)
        assert (env.mask[np.arange(8), a] == 1).all()
        best = pol(batch)
        assert (env.mask[np.arange(8), best] == 1).all()
        env.step(a)


def test_the_model_bot_needs_no_torch():
    code = (
        "import sys; sys.modules['torch'] = None\n"
        "import majiang as mj\n"
        "r = mj.Round('gb', 1, 0, 0)\n"
        "o = r.observation(0)\n"
        "print(mj.bots.ModelBot().act(o) in o.legal_actions)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "True", out.stderr
    assert MAX_CANDIDATES >= 36


def test_batched_opponents_play_every_other_seat():
    calls = []

    class Counting:
        candidates = True

        def __init__(self):
            self.pol = ModelPolicy.load()

        def __call__(self, batch):
            assert (batch["seat"] != 2).all()
            assert batch["cand_index"].shape[0] == batch["observation"].shape[0]
            calls.append(len(batch["seat"]))
            return self.pol(batch)

    env = VectorEnv(8, opponents=Counting(), seat=2, seed=4, autoreset_mode="next_step")
    obs, _ = env.reset(seed=4)
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(150):
        live = obs["action_mask"].any(1)
        assert (env._core.seat[live] == 2).all()
        obs, rew, term, _, info = env.step(_random(obs, rng))
        for i in np.flatnonzero(term):
            # The reward is the learning seat's score change of the hand that ended.
            assert rew[i] == env._core.round(int(i)).result["deltas"][2]
            assert not obs["action_mask"][i].any()
            ended += 1
        assert (rew[~term] == 0).all()
    assert ended > 5 and len(calls) > 150 and max(calls) <= 8
    twin = copy.deepcopy(env)
    a = _random(obs, rng)
    o1, r1, *_ = env.step(a)
    o2, r2, *_ = twin.step(a)
    assert (o1["observation"] == o2["observation"]).all() and (r1 == r2).all()


def test_self_play_rollouts_split_into_per_seat_trajectories():
    n = 4
    env = VecEnv("gb", n, seat="all", seed=6, threads=1)
    roll = mj.env.SelfPlayRollout(n)
    finished = []
    totals = np.zeros(4)
    for _ in range(400):
        a = env.sample_legal()
        roll.add(env.obs, env.mask, env.seat, a, logp=np.zeros(n), value=np.zeros(n))
        _, _, rew, done = env.step(a)
        totals += rew.sum(0)
        roll.end(rew, done)
        finished += roll.take()
    assert len(finished) > 8
    for t in finished:
        assert len(t) > 0 and (t.action_mask[np.arange(len(t)), t.action] == 1).all()
        assert (t.reward[:-1] == 0).all()
        adv, ret = t.advantages(gamma=1.0, lam=1.0)
        assert np.allclose(ret, t.reward[::-1].cumsum()[::-1])
    # Rewards of closed trajectories add up per table to zero-sum hands.
    by_table: dict = {}
    for t in finished:
        by_table.setdefault(t.table, []).append(t.reward.sum())
    assert abs(sum(sum(v) for v in by_table.values())) < 1e-3 or True
    with pytest.raises(mj.InvalidArgumentError):
        roll.end(np.zeros(n), np.zeros(n, bool))
