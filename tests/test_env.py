"""Learning environments: the action space, the planes and masks, VecEnv, and the
Gymnasium and PettingZoo environments (API checks, seeds, records)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import majiang as mj
from majiang.env import (
    N_ACTIONS,
    N_PLANES,
    VecEnv,
    action_to_index,
    encode,
    index_to_action,
    legal_mask,
)
from majiang.record import MatchRecord

gymnasium = pytest.importorskip("gymnasium")
pettingzoo = pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from majiang.env import MahjongAECEnv, MahjongEnv  # noqa: E402

RULES = ["gb", "classic", "huainan"]


def _indices(actions) -> set[int]:
    return {action_to_index(a) for a in actions}


def test_every_index_maps_to_an_action_and_back():
    seen = set()
    for i in range(N_ACTIONS):
        a = index_to_action(i)
        assert action_to_index(a) == i
        seen.add((a.kind, a.tile))
    assert len(seen) == N_ACTIONS
    assert action_to_index(mj.Action("chow", "3p")) == 136 + 7 + 2
    assert index_to_action(226) == mj.Action("pass")
    for bad in (-1, N_ACTIONS):
        with pytest.raises(ValueError):
            index_to_action(bad)


@pytest.mark.parametrize("rules", RULES)
def test_mask_is_the_legal_actions_at_every_step(rules):
    """Four seats playing random legal actions through many hands: at every step the
    mask of every seat is exactly its legal actions, and the planes are the encoding of
    its observation."""
    rng = np.random.default_rng(1)
    steps = 0
    for seed in range(12):
        env = MahjongAECEnv(rules)
        env.reset(seed=seed)
        while not all(env.terminations.values()):
            r = env._round
            for seat in range(4):
                obs = r.observation(seat)
                mask = legal_mask(obs)
                assert set(np.flatnonzero(mask)) == _indices(obs.legal_actions)
                assert set(np.flatnonzero(mask)) == _indices(r.legal_actions(seat))
            got = env.observe(env.agent_selection)
            assert got["observation"].shape == (N_PLANES, 34)
            legal = np.flatnonzero(got["action_mask"])
            env.step(int(rng.choice(legal)))
            steps += 1
    assert steps > 300


def test_encode_writes_into_the_callers_array():
    r = mj.Round("gb", seed=3)
    obs = r.observation(r.turn)
    out = np.full((N_PLANES, 34), 7, dtype=np.uint8)
    assert encode(obs, out) is out
    assert np.array_equal(out, encode(obs))
    assert out[:4].sum() == len(obs.hand)  # the hand thresholds count every tile
    with pytest.raises(ValueError):
        encode(obs, np.zeros((N_PLANES, 33), dtype=np.uint8))


def test_planes_ignore_what_the_seat_cannot_see():
    """Two rounds with the observer's tiles equal and the other hands and the walls
    different: the observer's planes are the same. (The Rust test
    ``hidden_tiles_do_not_reach_the_planes`` compares whole hands of play against rounds
    rebuilt from a seat's view with every hidden tile drawn afresh.)"""
    me = "1234567899m1234p"
    others = ["1112223334445z", "5566788999s115p", "556677s2226789p"]
    a = mj.Round("classic", hands=[me, *others], dealer=0, seed=1)
    b = mj.Round("classic", hands=[me, others[1], others[0], others[2]], dealer=0, seed=2)
    assert a.hand(1) != b.hand(1) and a.wall != b.wall
    assert np.array_equal(encode(a.observation(0)), encode(b.observation(0)))
    # The seat whose tiles differ does see the difference.
    assert not np.array_equal(encode(a.observation(1)), encode(b.observation(1)))


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("opponents", ["efficiency", "random"])
def test_vecenv_matches_the_round_it_steps(rules, opponents):
    """The planes VecEnv keeps from step to step are the encoding of the round afresh."""
    env = VecEnv(rules, 3, opponents=opponents, seed=4, threads=1, expert="efficiency")
    for _ in range(150):
        for i in range(3):
            r = env.round(i)
            obs = r.observation(0)
            assert np.array_equal(env.obs[i], encode(obs))
            assert set(np.flatnonzero(env.mask[i])) == _indices(obs.legal_actions)
        env.step(env.expert_actions())


def _run(threads: int, steps: int = 120):
    env = VecEnv("gb", 8, seed=9, threads=threads)
    rng = np.random.default_rng(0)
    out = []
    for _ in range(steps):
        mask = env.mask
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        obs, mask, rew, done = env.step(acts)
        out.append((obs.copy(), mask.copy(), rew.copy(), done.copy()))
    return out


def test_vecenv_results_do_not_depend_on_the_thread_count():
    one, two = _run(1), _run(2)
    assert any(d.any() for *_, d in one)
    for x, y in zip(one, two, strict=True):
        for u, v in zip(x, y, strict=True):
            assert np.array_equal(u, v)


def test_vecenv_refuses_an_illegal_action_and_moves_no_table():
    env = VecEnv("gb", 2, seed=1, threads=1)
    before = env.obs.copy()
    legal = int(np.flatnonzero(env.mask[0])[0])
    illegal = int(np.flatnonzero(env.mask[1] == 0)[0])
    with pytest.raises(mj.IllegalActionError):
        env.step([legal, illegal])
    assert np.array_equal(env.obs, before)
    with pytest.raises(ValueError):
        VecEnv("gb", 1, opponents="nobody")


@pytest.mark.parametrize("rules", RULES)
def test_selfplay_rows_are_the_acting_seats_view(rules):
    """With ``seat="all"`` each row is the view of the lowest seat that must decide (a
    claim window asks its seats one at a time), kept equal to a fresh encoding."""
    env = VecEnv(rules, 3, seat="all", seed=4, threads=1, expert="efficiency")
    assert env.selfplay and not VecEnv(rules, 1).selfplay
    assert env.obs.shape == (3, N_PLANES, 34)
    assert env.seat.shape == (3,) and env.seat.dtype == np.int8
    assert env.reward.shape == (3, 4) and env.reward.dtype == np.float32
    seen = set()
    for _ in range(200):
        for i in range(3):
            r = env.round(i)
            seat = int(env.seat[i])
            assert seat == r.pending[0]
            obs = r.observation(seat)
            assert np.array_equal(env.obs[i], encode(obs))
            assert set(np.flatnonzero(env.mask[i])) == _indices(obs.legal_actions)
            seen.add(seat)
        d0 = env.decisions
        env.step(env.expert_actions())
        assert env.decisions == d0 + 3
    assert seen == {0, 1, 2, 3}


def test_selfplay_rewards_add_up_to_every_seats_final_score():
    env = VecEnv(
        "gb", 4, seat="all", episode="match", hands=4, seed=2, record=True, expert="efficiency"
    )
    total = np.zeros((4, 4), np.float32)
    open_ = np.ones(4, bool)
    while open_.any():
        _, _, rew, done = env.step(env.expert_actions())
        total[open_] += rew[open_]
        assert (rew.sum(axis=1) == 0).all()
        open_ &= ~done
    for i in range(4):
        hands = env.finished_hands(i)
        assert len(hands) >= 4
        assert list(total[i]) == hands[3]["scores_after"]
    assert total.any()


def _run_selfplay(threads: int, env=None, steps: int = 150):
    env = env or VecEnv("classic", 6, seat="all", seed=9, threads=threads)
    rng = np.random.default_rng(0)
    out = []
    for _ in range(steps):
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in env.mask])
        obs, mask, rew, done = env.step(acts)
        out.append((obs.copy(), mask.copy(), env.seat.copy(), rew.copy(), done.copy()))
    return out


def test_vecenv_without_threads_reads_rayon_num_threads():
    """``threads=None`` follows ``RAYON_NUM_THREADS`` like ``simulate``; an empty or
    unreadable value counts as unset (every core)."""
    import os
    import subprocess
    import sys

    def threads(value: str | None) -> int:
        env = {k: v for k, v in os.environ.items() if k != "RAYON_NUM_THREADS"}
        if value is not None:
            env["RAYON_NUM_THREADS"] = value
        code = "from majiang.env import VecEnv; print(VecEnv('gb', 2, seed=1).threads)"
        run = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        return int(run.stdout)

    cores = threads(None)
    assert threads("1") == 1
    assert threads("3") == 3
    assert threads("") == cores
    assert threads("x") == cores


def test_selfplay_is_reproducible_on_any_thread_count_and_after_reset():
    one = _run_selfplay(1)
    assert any(x[-1].any() for x in one)
    env = VecEnv("classic", 6, seat="all", seed=9, threads=2)
    two = _run_selfplay(2, env)
    env.reset(9)
    again = _run_selfplay(2, env)
    for x, y, z in zip(one, two, again, strict=True):
        for u, v, w in zip(x, y, z, strict=True):
            assert np.array_equal(u, v) and np.array_equal(u, w)


def test_selfplay_without_autoreset_starts_the_next_episode_on_request():
    env = VecEnv("huainan", 2, seat="all", seed=3, autoreset=False, expert="efficiency")
    while True:
        _, _, _, done = env.step(env.expert_actions())
        if done[0]:
            break
        if done[1]:
            env.next_episode(1)
    assert env.round(0).is_over
    # Either explicitly, or at the table's next step whatever its action (next-step
    # autoreset: reward 0, not done).
    env.next_episode(0)
    r = env.round(0)
    assert not r.is_over and int(env.seat[0]) == r.pending[0]
    assert np.array_equal(env.obs[0], encode(r.observation(int(env.seat[0]))))
    while True:
        _, _, reward, done = env.step(env.expert_actions())
        if done[0]:
            break
        if done[1]:
            env.next_episode(1)
    assert env.round(0).is_over
    acts = env.expert_actions()
    acts[0] = -1
    if env.round(1).is_over:
        env.next_episode(1)
        acts[1] = env.expert_actions()[1]
    _, _, reward, done = env.step(acts)
    assert not done[0] and (reward[0] == 0).all() and not env.round(0).is_over
    r = env.round(0)
    assert int(env.seat[0]) == r.pending[0]
    assert np.array_equal(env.obs[0], encode(r.observation(int(env.seat[0]))))


def test_sample_legal_draws_legal_indices_reproducibly():
    env = VecEnv("gb", 8, seat="all", seed=4, threads=2)
    out = np.full(8, -7, dtype=np.int64)
    first = []
    for k in range(200):
        a = env.sample_legal()
        assert a.dtype == np.int64 and a.shape == (8,)
        assert env.mask[np.arange(8), a].all()
        assert env.sample_legal(seed=k, out=out) is out
        assert np.array_equal(out, env.sample_legal(seed=k))
        first.append(a.copy())
        env.step(a)
    # The env's own stream starts again at a reset with the same seed; another seed moves it.
    env.reset(4)
    again = []
    for _ in range(200):
        again.append(env.sample_legal())
        env.step(again[-1])
    assert all(np.array_equal(x, y) for x, y in zip(first, again, strict=True))
    env.reset(5)
    assert not np.array_equal(env.sample_legal(), first[0])
    with pytest.raises(ValueError):
        env.sample_legal(out=np.zeros(3, dtype=np.int64))


def test_sample_legal_is_minus_one_where_an_episode_ended():
    env = VecEnv("classic", 2, seed=3, autoreset=False, opponents="random")
    while True:
        _, _, _, done = env.step(env.sample_legal())
        if done.any():
            break
        assert (env.sample_legal() >= 0).all()
    assert env.sample_legal()[int(np.argmax(done))] == -1


def test_selfplay_arguments_are_checked():
    with pytest.raises(ValueError):
        VecEnv("gb", 1, seat="some")
    with pytest.raises(ValueError):
        VecEnv("gb", 1, seat=4)
    with pytest.raises(ValueError):
        VecEnv("gb", 1, seat="all", opponents="random")
    assert VecEnv("gb", 2, seat=2).seat.tolist() == [2, 2]


def test_gymnasium_check_env():
    """The default env passes Gymnasium's checker, which samples actions without the mask;
    so does every mode that does not raise."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(MahjongEnv(), skip_render_check=True)
        check_env(MahjongEnv("huainan", illegal_action="first_legal"), skip_render_check=True)


def _twins(mode: str, seed: int = 3):
    a = MahjongEnv("gb", opponents="random", illegal_action=mode)
    b = MahjongEnv("gb", opponents="random")
    oa, _ = a.reset(seed=seed)
    b.reset(seed=seed)
    return a, b, oa


def _walk(mode: str, want) -> int:
    """Steps an env with an illegal index at every decision beside a twin given the action
    `want(obs)` expects; both must stay equal. Returns how many decisions were compared."""
    a, b, obs = _twins(mode)
    n = 0
    for _ in range(60):
        mask = obs["action_mask"]
        illegal = int(np.flatnonzero(mask == 0)[-1])
        expected = want(obs)
        obs, ra, ta, _, info = a.step(illegal)
        ob, rb, tb, _, _ = b.step(expected)
        assert info == {
            "illegal_action": True,
            "requested_action": illegal,
            "played_action": expected,
        }
        assert np.array_equal(obs["observation"], ob["observation"]) and (ra, ta) == (rb, tb)
        n += 1
        if ta:
            obs, _ = a.reset()
            b.reset()
    return n


def test_an_illegal_action_is_replaced_by_doing_nothing_by_default():
    """Default: pass when passing is legal, else discard the tile just drawn, else the
    lowest legal index."""
    seen = set()

    def want(obs):
        mask = obs["action_mask"]
        drawn = np.flatnonzero(obs["observation"][4])
        if mask[226]:
            seen.add("pass")
            return 226
        if drawn.size and mask[drawn[0]]:
            seen.add("drawn")
            return int(drawn[0])
        seen.add("lowest")
        return int(np.flatnonzero(mask)[0])

    assert MahjongEnv().illegal_action == "substitute"
    assert _walk("substitute", want) == 60
    assert {"pass", "drawn"} <= seen
    # A legal action is played as given, with nothing in info.
    env = MahjongEnv()
    obs, _ = env.reset(seed=1)
    assert env.step(int(np.flatnonzero(obs["action_mask"])[-1]))[4] == {}


def test_first_legal_replaces_an_illegal_action_by_the_lowest_legal_index():
    assert _walk("first_legal", lambda obs: int(np.flatnonzero(obs["action_mask"])[0])) == 60


def test_raise_refuses_an_illegal_action_and_moves_nothing():
    env = MahjongEnv("classic", illegal_action="raise")
    obs, _ = env.reset(seed=2)
    for bad in (int(np.flatnonzero(obs["action_mask"] == 0)[0]), -1, N_ACTIONS):
        with pytest.raises(mj.IllegalActionError):
            env.step(bad)
    assert np.array_equal(env._obs()["observation"], obs["observation"])
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    with pytest.raises(ValueError, match="illegal_action"):
        MahjongEnv(illegal_action="penalty")


@pytest.mark.parametrize("rules", RULES)
def test_pettingzoo_api_test(rules):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(MahjongAECEnv(rules), num_cycles=200)
        api_test(MahjongAECEnv(rules, episode="match", hands=2), num_cycles=200)


def _episode(env, seed, policy_seed=0):
    rng = np.random.default_rng(policy_seed)
    obs, _ = env.reset(seed=seed)
    trace, total = [obs["observation"].tobytes()], 0.0
    while True:
        a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, r, term, trunc, _ = env.step(a)
        trace.append(obs["observation"].tobytes())
        total += r
        if term or trunc:
            return trace, total


def test_reset_with_a_seed_replays_the_same_hand():
    env = MahjongEnv("classic", opponents="strong_lite")
    t1, r1 = _episode(env, 5)
    _episode(env, 6)
    t2, r2 = _episode(env, 5)
    assert t1 == t2 and r1 == r2
    t3, _ = _episode(env, 7)
    assert t3 != t1


@pytest.mark.parametrize("rules", RULES)
def test_a_match_episode_is_recorded_and_replays(rules, tmp_path):
    env = MahjongEnv(rules, episode="match", hands=3)
    _, total = _episode(env, 2)
    rec = env.record
    assert rec.complete and len(rec.hands) == 3
    assert total == rec.final_scores[env.seat]
    loaded = MatchRecord.load(rec.save(tmp_path / "m.jsonl"))
    loaded.replay()
    assert loaded.players[0] == "learner"


def test_hand_episodes_walk_through_the_match():
    env = MahjongEnv("gb", hands=2)
    _episode(env, 3)
    obs, _ = env.reset()
    assert env.record is not None and len(env.record.hands) == 1
    while True:
        a = int(np.flatnonzero(obs["action_mask"])[0])
        obs, _, term, _, _ = env.step(a)
        if term:
            break
    assert env.record.complete
    env.record.replay()


def test_aec_record_replays():
    env = MahjongAECEnv("huainan", episode="match", hands=2)
    env.reset(seed=4)
    rng = np.random.default_rng(2)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, rew, term, trunc, _ = env.last()
        totals[agent] += rew
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.record.complete
    assert [totals[a] for a in env.possible_agents] == env.record.final_scores
    env.record.replay()


def test_aec_hand_episodes_walk_through_the_match():
    env = MahjongAECEnv("gb", hands=3)
    env.reset(seed=1)
    dealers = []
    for _ in range(3):
        dealers.append(env._round.dealer)
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
        env.reset()
    assert dealers == [0, 1, 2]
    assert env.record.seed != 1  # the finished match was followed by a new one
