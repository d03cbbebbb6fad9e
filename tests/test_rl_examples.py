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


def test_the_training_example_runs_end_to_end_and_its_weights_play(tmp_path):
    """examples/train_model.py at a tiny size (numpy only, so it runs everywhere): data,
    imitation, fine-tuning, duplicate evaluation; ModelBot plays the file it writes."""
    import json

    import majiang as mj

    out = tmp_path / "w.npz"
    log = tmp_path / "curve.json"
    res = subprocess.run(
        [
            sys.executable,
            str(EXAMPLES / "train_model.py"),
            "--out",
            str(out),
            "--decisions",
            "3000",
            "--epochs",
            "2",
            "--ppo-iters",
            "2",
            "--ppo-steps",
            "8",
            "--tables",
            "32",
            "--walls",
            "40",
            "--log",
            str(log),
            "--threads",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert res.returncode == 0, res.stderr[-2000:]
    curve = json.loads(log.read_text())
    stages = [e["stage"] for e in curve]
    assert stages.count("imitation") == 2 and stages.count("ppo") == 2 and stages[-1] == "final"
    assert curve[-1]["walls"] == 40 and curve[-1]["ci95"][0] <= curve[-1]["mean"]
    r = mj.Round("gb", 3, 0, 0)
    o = r.observation(0)
    assert mj.bots.ModelBot(out).act(o) in o.legal_actions
