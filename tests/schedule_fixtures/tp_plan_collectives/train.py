# Tensor parallelism by a plan: parallelize_module installs each style's
# hooks on the submodules its keys reach ("layers.*.mlp.up": every
# block's).  A styled submodule's call redistributes its input to the
# layout the style wants and its output to the layout it is given:
# Shard -> Replicate is an all-gather, Partial -> Replicate an all-reduce,
# Partial -> Shard a reduce-scatter, Replicate -> Shard a local chunk.
import os

import torch
import torch.nn as nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import Replicate, Shard
from torch.distributed.tensor.parallel import (ColwiseParallel, PrepareModuleInput, RowwiseParallel,
                                               SequenceParallel, parallelize_module)


class MLP(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.up = nn.Linear(d, 4 * d)
        self.down = nn.Linear(4 * d, d)

    def forward(self, x):
        h = torch.relu(self.up(x))
        return self.down(h)


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.mlp = MLP(d)

    def forward(self, x):
        return x + self.mlp(self.norm(x))


class Net(nn.Module):
    def __init__(self, vocab, d, n):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList([Block(d) for _ in range(n)])
        self.head = nn.Linear(d, vocab)
        self.proj = nn.Linear(vocab, vocab)

    def forward(self, tokens):
        h = self.emb(tokens)
        for layer in self.layers:
            h = layer(h)
        logits = self.head(h)
        return self.proj(logits)


world = int(os.environ["WORLD_SIZE"])
mesh = init_device_mesh("cuda", (world,), mesh_dim_names=("tp",))
model = Net(1000, 64, 2).to("cuda")
plan = {
    "emb": RowwiseParallel(input_layouts=Replicate(), output_layouts=Shard(1)),
    "layers.*.norm": SequenceParallel(),
    "layers.*.mlp": PrepareModuleInput(input_layouts=(Shard(1),), desired_input_layouts=(Replicate(),)),
    "layers.*.mlp.up": ColwiseParallel(),
    "layers.*.mlp.down": RowwiseParallel(output_layouts=Shard(1)),
    "head": ColwiseParallel(input_layouts=Shard(1), output_layouts=Replicate()),
    "proj": RowwiseParallel(),
}
model = parallelize_module(model, mesh["tp"], plan)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

for step in range(20):
    tokens = torch.randint(0, 1000, (4, 16), device="cuda")
    out = model(tokens)
    out.sum().backward()
    opt.step()
    opt.zero_grad()
