"""A CleanRL-style masked policy-gradient loop in torch on majiang's gymnasium VectorEnv.

pip install "majiang[train]"; python examples/cleanrl_ppo.py [iterations]
"""

import sys

import numpy as np
import torch

from majiang.env import VectorEnv

iters = int(sys.argv[1]) if len(sys.argv) > 1 else 200
env = VectorEnv(32, rules="gb", opponents="efficiency", seed=0)
c, a = env.single_observation_space["observation"].shape[0], env.single_action_space.n
net = torch.nn.Sequential(
    torch.nn.Flatten(), torch.nn.Linear(c * 34, 128), torch.nn.ReLU(), torch.nn.Linear(128, a)
)
opt = torch.optim.Adam(net.parameters(), lr=3e-4)
obs, _ = env.reset(seed=0)
for _it in range(iters):
    x = torch.as_tensor(obs["observation"], dtype=torch.float32) / 4
    mask = torch.as_tensor(obs["action_mask"], dtype=torch.bool)
    dist = torch.distributions.Categorical(logits=net(x).masked_fill(~mask, -1e9))
    act = dist.sample()
    obs, rew, term, trunc, _ = env.step(act.numpy())
    loss = -(dist.log_prob(act) * torch.as_tensor(rew / 32.0)).mean()
    opt.zero_grad(), loss.backward(), opt.step()
print("ran", iters, "iterations; mean reward", float(np.mean(rew)))
