"""The learning examples of docs/rl.md run (a few hundred steps each) where their packages
are installed (the ``train`` extra: torch, sb3-contrib); they are skipped otherwise."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _run(script: str, arg: str) -> str:
    out = subprocess.run(
        [sys.executable, str(EXAMPLES / script), arg],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout


def test_sb3_maskable_ppo_example_runs():
    pytest.importorskip("sb3_contrib", reason="sb3-contrib (the train extra) is needed")
    assert "trained 256 steps" in _run("sb3_maskable_ppo.py", "256")


def test_cleanrl_style_example_runs():
    pytest.importorskip("torch", reason="torch (the train extra) is needed")
    assert "ran 200 iterations" in _run("cleanrl_ppo.py", "200")


def test_sb3_vec_env_follows_the_sb3_interface():
    pytest.importorskip("stable_baselines3", reason="stable-baselines3 (the train extra)")
    import numpy as np
    from stable_baselines3.common.vec_env import VecEnv

    from majiang.env.sb3 import SB3VecEnv

    env = SB3VecEnv(4, rules="gb", seed=2)
    assert isinstance(env, VecEnv)
    env.seed(2)
    obs = env.reset()
    rng = np.random.default_rng(0)
    ends = 0
    for _ in range(300):
        m = env.action_masks()
        a = (rng.random(m.shape) * m).argmax(1)
        obs, rew, done, infos = env.step(a)
        for i in np.flatnonzero(done):
            assert "terminal_observation" in infos[i]
            ends += 1
        masks = env.env_method("action_masks")
        assert len(masks) == 4 and (np.stack(masks) == env.action_masks()).all()
    assert ends > 0
    assert env.get_attr("num_envs") == [4] * 4
