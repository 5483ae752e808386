"""A detector-like model whose forward loops over known items (four
pooling levels named in the constructor) and over a dict its pyramid
builds with `insert` in a loop (its length is not pinned by ecg's one
read of that loop).

    python train.py
"""
from collections import OrderedDict

import torch
import torch.nn as nn


class Pyramid(nn.Module):
    def __init__(self, n_in=4, dim=8):
        super().__init__()
        self.inner = nn.ModuleList([nn.Conv2d(dim, dim, 1) for _ in range(n_in)])

    def forward(self, feats):
        names = list(feats.keys())
        xs = list(feats.values())
        last = self.inner[-1](xs[-1])
        results = [last]
        for idx in range(len(xs) - 2, -1, -1):
            last = self.inner[idx](xs[idx]) + last
            results.insert(0, last)
        return OrderedDict([(k, v) for k, v in zip(names, results)])


class Pool(nn.Module):
    def __init__(self, names):
        super().__init__()
        self.names = names
        self.scales = [1.0 / 2 ** i for i in range(len(names))]

    def forward(self, feats, levels):
        out = []
        for level, (name, s) in enumerate(zip(self.names, self.scales)):
            idx = torch.where(levels == level)[0]
            out.append(feats[name][idx] * s)
        for name, f in feats.items():
            if f.abs().max() > 1e4:
                print("large activations in", name)
        return out


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 8, 3, padding=1)
        self.fpn = Pyramid()
        self.pool = Pool(["0", "1", "2", "3"])

    def forward(self, x, levels):
        y = self.stem(x)
        feats = OrderedDict((str(i), y) for i in range(4))
        return self.pool(self.fpn(feats), levels)


def main():
    model = Net().cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        x = torch.randn(2, 3, 16, 16, device="cuda")
        levels = torch.randint(0, 4, (2,), device="cuda")
        loss = sum(o.sum() for o in model(x, levels))
        loss.backward()
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
