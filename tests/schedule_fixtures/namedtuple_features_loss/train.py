"""A feature-matching loss over a network that returns its features as a
collections.namedtuple; a typing.NamedTuple batch unpacked in the loop.

    python train.py --steps 100
"""
import argparse
from collections import namedtuple
from typing import NamedTuple

import torch
import torch.nn as nn


class Batch(NamedTuple):
    x: torch.Tensor
    y: torch.Tensor


class Features(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(16, 16)
        self.b = nn.Linear(16, 16)

    def forward(self, x):
        h1 = torch.relu(self.a(x))
        h2 = torch.relu(self.b(h1))
        outs = namedtuple("Outs", ["h1", "h2"])
        return outs(h1, h2)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=10)
    args = p.parse_args()
    device = torch.device("cuda")
    net = Features().to(device)
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    for step in range(args.steps):
        batch = Batch(torch.randn(8, 16), torch.randn(8, 16))
        x, y = batch
        fx = net(x.to(device))
        fy = net(y.to(device))
        loss = (fx.h2 - fy.h2).pow(2).mean()
        for a, b in zip(fx, fy):
            loss = loss + (a - b).abs().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()
