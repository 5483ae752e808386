# The parallel degrees of a job that lays its ranks out as a device mesh
# (torchtitan's ParallelDims): no call names a degree parameter; the
# degrees are the sizes of the mesh's named axes.  --tp 2 on the command
# line, dp_shard -1 resolved from the world (8 // (1 * 1 * 1 * 2) = 4),
# pp and cp 1 by default.  The first mesh ("world") names no parallelism
# and states nothing; the expert mesh's "efsdp" axis (8 ranks) says
# nothing either, so the expert degree is not stated from it.
import argparse
import os
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh


@dataclass
class Dims:
    dp_replicate: int
    dp_shard: int
    cp: int
    tp: int
    pp: int
    ep: int
    world_size: int

    def __post_init__(self):
        if self.dp_shard < 0:
            self.dp_shard = self.world_size // (self.dp_replicate * self.cp * self.tp * self.pp)

    def build_mesh(self):
        world = init_device_mesh("cuda", (self.world_size,), mesh_dim_names=("world",))
        dense = world._unflatten(0, (self.pp, self.dp_replicate, self.dp_shard, self.cp, self.tp),
                                 ("pp", "dp_replicate", "dp_shard", "cp", "tp"))
        efsdp = self.dp_shard * self.cp * self.tp // self.ep
        sparse = world._unflatten(0, (self.pp, self.dp_replicate, efsdp, self.ep),
                                  ("pp", "dp_replicate", "efsdp", "ep"))
        return dense, sparse


parser = argparse.ArgumentParser()
parser.add_argument("--tp", type=int, default=1)
parser.add_argument("--pp", type=int, default=1)
parser.add_argument("--steps", type=int, default=100)
args = parser.parse_args()

dist.init_process_group(backend="nccl")
torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
dims = Dims(dp_replicate=1, dp_shard=-1, cp=1, tp=args.tp, pp=args.pp, ep=1,
            world_size=int(os.environ["WORLD_SIZE"]))
dense, sparse = dims.build_mesh()
dp_mesh = dense["dp_shard"]

model = nn.Linear(64, 64).to("cuda")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
for step in range(args.steps):
    x = torch.randn(8, 64, device="cuda")
    loss = model(x).pow(2).mean()
    loss.backward()
    opt.step()
    opt.zero_grad()
    dist.all_reduce(loss, group=dp_mesh.get_group())
