"""A small GPT trainer whose size comes from its command line."""
import argparse

import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.ln = nn.LayerNorm(d)
        self.fc = nn.Linear(d, d)

    def forward(self, x):
        return x + self.fc(self.ln(x))


class Net(nn.Module):
    def __init__(self, n_layer, d):
        super().__init__()
        self.blocks = nn.ModuleList([Block(d) for _ in range(n_layer)])
        self.head = nn.Linear(d, 10)

    def forward(self, x):
        for b in self.blocks:
            x = b(x)
        return self.head(x)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n-layer", type=int, default=2)
    p.add_argument("--d-model", type=int, default=16)
    p.add_argument("--steps", type=int, default=3)
    p.add_argument("--save", type=str, default=None)
    args = p.parse_args()
    model = Net(args.n_layer, args.d_model)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(args.steps):
        x = torch.randn(4, args.d_model)
        loss = model(x).sum()
        loss.backward()
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
