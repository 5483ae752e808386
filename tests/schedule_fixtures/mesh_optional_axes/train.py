# Parallelism as a device mesh over the world (torchtitan-style): the world
# is unflattened into pipeline and data axes, and a helper gives no mesh
# for an axis of size 1.  With 8 processes and a pipeline degree of 1, the
# loss check is reduced over the data axis only; the pipeline reduction is
# not issued.  The rank-0 checkpoint saves host data only.
import os
import torch
import torch.nn as nn
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh

PIPELINE_DEGREE = 1


class Dims:
    def __init__(self, world_size, pp):
        self.world_size = world_size
        self.pp = pp
        self.dp = world_size // pp
        self._meshes = {}

    def build(self):
        world = init_device_mesh("cuda", (self.world_size,), mesh_dim_names=("world",))
        mesh = world._unflatten(0, (self.pp, self.dp), ("pp", "dp"))
        self._meshes = {"pp": mesh["pp"], "dp": mesh["dp"]}

    def optional_mesh(self, name):
        if not self._meshes:
            self.build()
        if self._meshes[name].size() <= 1:
            return None
        return self._meshes[name]


dist.init_process_group(backend="nccl")
local_rank = int(os.environ["LOCAL_RANK"])
torch.cuda.set_device(local_rank)
dims = Dims(dist.get_world_size(), PIPELINE_DEGREE)

model = nn.Linear(64, 64).to("cuda")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
for step in range(100):
    x = torch.randn(8, 64, device="cuda")
    loss = model(x).pow(2).mean()
    loss.backward()
    opt.step()
    opt.zero_grad()
    finite = torch.isfinite(loss).float()
    dp_mesh = dims.optional_mesh("dp")
    if dp_mesh is not None:
        dist.all_reduce(finite, op=dist.ReduceOp.MIN, group=dp_mesh.get_group())
    pp_mesh = dims.optional_mesh("pp")
    if pp_mesh is not None:
        dist.all_reduce(finite, op=dist.ReduceOp.MIN, group=pp_mesh.get_group())


def optimizer_checkpoint():
    if dist.get_rank() == 0:
        return {"param_groups": opt.state_dict()["param_groups"], "step": 100}
    return {}


torch.save(optimizer_checkpoint(), "opt.pt")
