# DDP with gradient accumulation: the gradient all-reduce only on the last
# micro-step (require_backward_grad_sync, as llm.c's train_gpt2.py does).
import os
import torch
import torch.nn as nn
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group(backend="nccl")
local_rank = int(os.environ["LOCAL_RANK"])
device = f"cuda:{local_rank}"
torch.cuda.set_device(device)

grad_accum_steps = 4
model = nn.Sequential(nn.Linear(64, 256), nn.GELU(), nn.Linear(256, 64))
model.to(device)
model = DDP(model, device_ids=[local_rank])
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)

for step in range(1000):
    optimizer.zero_grad(set_to_none=True)
    for micro_step in range(grad_accum_steps):
        x = torch.randn(8, 64)
        x = x.to(device)
        loss = model(x).pow(2).mean() / grad_accum_steps
        model.require_backward_grad_sync = (micro_step == grad_accum_steps - 1)
        loss.backward()
    optimizer.step()
