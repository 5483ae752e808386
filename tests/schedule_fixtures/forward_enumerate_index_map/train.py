"""A model that keeps a map of step indices, built in __init__ by a loop
over enumerate() of an array read from a file (its values not known), and
makes it into a tensor on the device of the forward's timesteps at every
forward: the map holds enumerate()'s indices, Python ints, so the forward
copies them host to device every step (as a diffusion's respaced
timestep map does).

    python train.py
"""
import numpy as np
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, alphas):
        super().__init__()
        self.fc = nn.Linear(16, 16)
        self.emb = nn.Embedding(1000, 16)
        self.timestep_map = []
        for i, a in enumerate(np.cumprod(alphas)):
            if a > 0.01:
                self.timestep_map.append(i)

    def forward(self, x):
        t = torch.randint(0, len(self.timestep_map), (x.shape[0],), device=x.device)
        map_tensor = torch.tensor(self.timestep_map, device=t.device, dtype=t.dtype)
        return self.fc(x) + self.emb(map_tensor[t])


def main():
    device = torch.device("cuda")
    model = Net(np.load("alphas.npy")).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        x = torch.randn(8, 16, device=device)
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
