import argparse

import torch

from acme.model import Net


def train(steps, lr):
    model = Net().cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=lr)
    for step in range(steps):
        x = torch.randn(32, 64, device="cuda")
        y = torch.randint(0, 10, (32,), device="cuda")
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=100)
    p.add_argument("--lr", type=float, default=3e-4)
    args = p.parse_args()
    train(args.steps, args.lr)
