# The data-parallel degree of a plain DDP job: no call names a degree and
# no device mesh is built; DistributedDataParallel over the default group
# (no process_group) replicates the model on every process, so the data
# degree is WORLD_SIZE (4 under torchrun --nproc_per_node 4).
import os
import torch
import torch.nn as nn
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group(backend="nccl")
local_rank = int(os.environ["LOCAL_RANK"])
torch.cuda.set_device(local_rank)
model = DDP(nn.Linear(32, 32).cuda(), device_ids=[local_rank])
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(100):
    loss = model(torch.randn(8, 32, device="cuda")).sum()
    loss.backward()
    opt.step()
    opt.zero_grad()
