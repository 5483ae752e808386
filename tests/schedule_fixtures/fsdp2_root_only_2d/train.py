# 2-D parallelism with fully_shard on the root only: parallelize_module
# (tensor parallel over the "tp" axis) hands back the module it was
# given, parallelized in place, so the model is found through it; then
# one fully_shard unit over the "dp" axis.  FSDP2's lazy init keeps the
# root unit's parameters unsharded from forward to backward when
# reshard_after_forward= is not given: an all-gather before the forward,
# a reduce-scatter in backward, and no all-gather again for backward.
# (down's RowwiseParallel all-reduces its Partial output over tp.)
import os
import torch
import torch.nn as nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard
from torch.distributed.tensor.parallel import parallelize_module, ColwiseParallel, RowwiseParallel


class MLP(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.up = nn.Linear(d, 4 * d)
        self.down = nn.Linear(4 * d, d)

    def forward(self, x):
        return self.down(torch.relu(self.up(x)))


world = int(os.environ["WORLD_SIZE"])
mesh = init_device_mesh("cuda", (world // 2, 2), mesh_dim_names=("dp", "tp"))

model = MLP(128).to("cuda")
model = parallelize_module(model, mesh["tp"], {"up": ColwiseParallel(), "down": RowwiseParallel()})
sharded = fully_shard(model, mesh=mesh["dp"])
opt = torch.optim.AdamW(sharded.parameters(), lr=1e-3)

for step in range(20):
    x = torch.randn(8, 128, device="cuda")
    out = sharded(x)
    out.sum().backward()
    opt.step()
    opt.zero_grad()
