import numpy as np
import torch
import torch.nn as nn


class Env:
    def reset(self):
        return np.zeros((4, 3), dtype=np.float32)

    def step(self, action):
        return np.random.rand(4, 3).astype(np.float32), np.ones(4, dtype=np.float32)


def main():
    device = torch.device("cuda")
    env = Env()
    policy = nn.Linear(3, 2).to(device)
    opt = torch.optim.Adam(policy.parameters(), lr=1e-3)
    num_steps = 16
    obs_buf = torch.zeros((num_steps, 4, 3), device=device)
    rew_buf = torch.zeros((num_steps, 4), device=device)
    next_obs = torch.tensor(env.reset()).to(device)
    for iteration in range(100):
        for step in range(num_steps):
            obs_buf[step] = next_obs
            with torch.no_grad():
                logits = policy(next_obs)
            action = torch.argmax(logits, dim=1)
            obs, reward = env.step(action.cpu().numpy())
            rew_buf[step] = torch.tensor(reward).to(device)
            next_obs = torch.tensor(obs).to(device)
        b_obs = obs_buf.reshape(-1, 3)
        b_rew = rew_buf.reshape(-1)
        for epoch in range(4):
            for start in range(0, 64, 16):
                idx = torch.arange(start, start + 16, device=device)
                loss = ((policy(b_obs[idx]).sum(1) - b_rew[idx]) ** 2).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
        print(loss.item())


if __name__ == "__main__":
    main()
