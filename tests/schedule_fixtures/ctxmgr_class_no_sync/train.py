# Local SGD: a context-manager class of the job's own holds DDP's no_sync
# over the training loop (its __enter__ enters model.no_sync() by hand, its
# __exit__ averages the parameters and leaves it), so no backward reduces
# gradients; the parameters are all-reduced every 8 steps instead.
import os
import torch
import torch.nn as nn
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


class LocalSGD:
    def __init__(self, model, sync_every):
        self.model = model
        self.sync_every = sync_every
        self.num_steps = 0

    def __enter__(self):
        self.sync_ctx = self.model.no_sync()
        self.sync_ctx.__enter__()
        return self

    def __exit__(self, exc_type, exc, tb):
        self.average()
        self.sync_ctx.__exit__(exc_type, exc, tb)

    def step(self):
        self.num_steps += 1
        if self.num_steps % self.sync_every == 0:
            self.average()

    def average(self):
        for p in self.model.parameters():
            dist.all_reduce(p.data)
            p.data /= dist.get_world_size()


dist.init_process_group(backend="nccl")
local_rank = int(os.environ["LOCAL_RANK"])
device = f"cuda:{local_rank}"
torch.cuda.set_device(device)

model = nn.Sequential(nn.Linear(64, 256), nn.GELU(), nn.Linear(256, 64)).to(device)
model = DDP(model, device_ids=[local_rank])
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)

for epoch in range(3):
    with LocalSGD(model, sync_every=8) as local_sgd:
        for step in range(1000):
            x = torch.randn(8, 64, device=device)
            loss = model(x).pow(2).mean()
            loss.backward()
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
            local_sgd.step()
