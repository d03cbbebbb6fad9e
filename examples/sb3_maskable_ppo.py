"""MaskablePPO (sb3-contrib) on the Rust tables through majiang's SB3 VecEnv.

pip install "majiang[train]"; python examples/sb3_maskable_ppo.py [steps]
"""

import sys

from sb3_contrib import MaskablePPO

from majiang.env.sb3 import SB3VecEnv

steps = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
env = SB3VecEnv(8, rules="gb", opponents="efficiency", seed=0)
model = MaskablePPO("MultiInputPolicy", env, n_steps=32, batch_size=64, seed=0, verbose=0)
model.learn(total_timesteps=steps)
obs = env.reset()
action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
print("trained", steps, "steps; first actions", action[:4])
