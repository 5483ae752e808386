# FSDP2 (fully_shard, the default mesh: every rank, data parallel) and,
# after training, a checkpointer that gathers the full state dict: each
# sharded parameter's full_tensor() is an all-gather over the ranks (the
# state_dict of a fully_shard model holds Shard(0) DTensors), and rank 0
# copies the gathered tensor to the host.  The checkpointer's helper is a
# checkpoint's work although its own name says nothing of it.
import os
import torch
import torch.nn as nn
import torch.distributed as dist
from torch.distributed.fsdp import fully_shard


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc = nn.Linear(d, d)

    def forward(self, x):
        return x + torch.relu(self.fc(x))


class Net(nn.Module):
    def __init__(self, d, n):
        super().__init__()
        self.layers = nn.ModuleList([Block(d) for _ in range(n)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class Checkpointer:
    def __init__(self, path):
        self.path = path

    def _gather_full(self, model):
        sharded = model.state_dict()
        full = {}
        for name, param in sharded.items():
            gathered = param.full_tensor()  # DTensor: an all_gather of the shards
            if dist.get_rank() == 0:
                full[name] = gathered.cpu()
        return full

    def save(self, model):
        state = self._gather_full(model)
        if dist.get_rank() == 0:
            torch.save(state, self.path)


dist.init_process_group(backend="nccl")
local_rank = int(os.environ["LOCAL_RANK"])
device = torch.device("cuda", local_rank)
torch.cuda.set_device(device)

model = Net(64, 4).to(device)
for layer in model.layers:
    fully_shard(layer)
fully_shard(model)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

for step in range(100):
    x = torch.randn(8, 64, device=device)
    loss = model(x).pow(2).mean()
    loss.backward()
    opt.step()
    opt.zero_grad()

Checkpointer("ckpt.pt").save(model)
