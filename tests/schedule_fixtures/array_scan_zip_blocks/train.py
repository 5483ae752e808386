import os

import numpy as np
import torch
import torch.distributed as dist
from torch import nn


class Layer(nn.Linear):
    def forward(self, x):
        return torch.relu(super().forward(x))


class Head(nn.Linear):
    def forward(self, x):
        y = super().forward(x)
        dist.all_reduce(y)
        return y


class Block(nn.Module):
    """Built later, on the rank the pipeline assigns (all of them on one stage here)."""

    def __init__(self, builder, n):
        super().__init__()
        self.builder = builder
        self.n = n

    def build_and_set_rank(self, rank):
        self.rank = rank
        self.inner = self.builder(self.n, self.n)

    def forward(self, x):
        return self.inner(x)


class Model(nn.Module):
    def __init__(self, n_layers):
        super().__init__()
        self.layers = nn.ModuleList([Block(Layer, 16) for _ in range(n_layers)])
        self.head = Block(Head, 16)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return self.head(x)


def build_model(n_layers):
    model = Model(n_layers)
    blocks = [m for _, m in model.named_modules() if isinstance(m, Block)]
    costs = {Layer: 3, Head: 5}
    cumulative = np.cumsum([costs[b.builder] if b.builder in costs else 0 for b in blocks])
    for block, cost in zip(blocks, cumulative):
        block.build_and_set_rank(0)
    return model


def main():
    dist.init_process_group(backend="nccl")
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    model = build_model(4).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        x = torch.randn(8, 16, device="cuda")
        loss = model(x).pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
