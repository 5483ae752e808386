# ZeroRedundancyOptimizer (ZeRO stage 1) over a DDP model: each rank keeps
# the optimizer state of its shard of the parameters; step() updates that
# shard and then broadcasts every rank's parameters from their owner.  The
# probe head's plain SGD step communicates nothing, nor does building the
# sharded optimizer.
import os
import torch
import torch.nn as nn
import torch.distributed as dist
from torch.distributed.optim import ZeroRedundancyOptimizer
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group(backend="nccl")
local_rank = int(os.environ["LOCAL_RANK"])
device = torch.device("cuda", local_rank)
torch.cuda.set_device(device)

model = nn.Sequential(nn.Linear(64, 256), nn.GELU(), nn.Linear(256, 64)).to(device)
model = DDP(model, device_ids=[local_rank])
probe = nn.Linear(64, 10).to(device)
optimizer = ZeroRedundancyOptimizer(model.parameters(), optimizer_class=torch.optim.AdamW, lr=3e-4)
probe_opt = torch.optim.SGD(probe.parameters(), lr=0.1)

for step in range(1000):
    x = torch.randn(16, 64, device=device)
    loss = probe(model(x)).pow(2).mean()
    loss.backward()
    optimizer.step()
    probe_opt.step()
    optimizer.zero_grad(set_to_none=True)
    probe_opt.zero_grad(set_to_none=True)
