# Which parallelism a collective over a device mesh serves, read off the
# mesh's axes (torchtitan-style): the world is unflattened into named axes
# (pp=1, batch=4, cp=1, tp=2 over 8 processes), the loss mesh is the batch
# and cp axes flattened into one, whose name says nothing -- its axes say
# data (cp has one rank).  A reduction over the batch mesh itself
# (functional collectives take the mesh as the group), one over the loss
# mesh's group and one over the tp axis's group.
import os
import torch
import torch.nn as nn
import torch.distributed as dist
import torch.distributed._functional_collectives as funcol
from torch.distributed.device_mesh import init_device_mesh

dist.init_process_group(backend="nccl")
local_rank = int(os.environ["LOCAL_RANK"])
torch.cuda.set_device(local_rank)

world = init_device_mesh("cuda", (8,), mesh_dim_names=("world",))
mesh = world._unflatten(0, (1, 4, 1, 2), ("pp", "batch", "cp", "tp"))
batch_mesh = mesh["batch"]
loss_mesh = mesh["batch", "cp"]._flatten("loss_mesh")
tp_mesh = mesh["tp"]

model = nn.Linear(64, 64).to("cuda")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
for step in range(100):
    x = torch.randn(8, 64, device="cuda")
    tokens = torch.ones(1, device="cuda")
    tokens = funcol.wait_tensor(funcol.all_reduce(tokens, "sum", group=batch_mesh))
    loss = model(x).pow(2).mean() / tokens
    loss.backward()
    opt.step()
    opt.zero_grad()
    finite = torch.isfinite(loss).float()
    dist.all_reduce(finite, op=dist.ReduceOp.MIN, group=loss_mesh.get_group())
    dist.all_reduce(finite, op=dist.ReduceOp.MAX, group=tp_mesh.get_group())
