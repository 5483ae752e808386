# DDP broadcasts a model's buffers (here a causal mask a repository module
# registers with register_buffer) from rank 0 before a forward that follows
# one that synced gradients (or before the first forward of all), and a
# forward without gradients turns that off.  With 2 micro-steps and
# require_backward_grad_sync on the last one only, the broadcast is on the
# first micro-step of each step; in the evaluation every 100 steps
# (no_grad), on the first of its 20 forwards.
import os
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


class CausalMix(nn.Module):
    def __init__(self, d, t):
        super().__init__()
        self.proj = nn.Linear(d, d)
        self.register_buffer("mask", torch.tril(torch.ones(t, t)).view(1, t, t))

    def forward(self, x):
        t = x.size(1)
        att = (x @ x.transpose(1, 2)).masked_fill(self.mask[:, :t, :t] == 0, float("-inf"))
        return self.proj(F.softmax(att, dim=-1) @ x)


dist.init_process_group(backend="nccl")
local_rank = int(os.environ["LOCAL_RANK"])
device = f"cuda:{local_rank}"
torch.cuda.set_device(device)

grad_accum_steps = 2
model = CausalMix(64, 32).to(device)
model = DDP(model, device_ids=[local_rank])
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)

for step in range(1000):
    if step % 100 == 0:
        model.eval()
        with torch.no_grad():
            for split in ("train", "val"):
                for _ in range(20):
                    xv = torch.randn(8, 32, 64, device=device)
                    val = model(xv).pow(2).mean()
        model.train()
    for micro_step in range(grad_accum_steps):
        x = torch.randn(8, 32, 64, device=device)
        model.require_backward_grad_sync = (micro_step == grad_accum_steps - 1)
        loss = model(x).pow(2).mean() / grad_accum_steps
        loss.backward()
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)

# rank 0 probes the module inside the wrapper: DDP's forward does not run
if dist.get_rank() == 0:
    with torch.no_grad():
        for _ in range(5):
            probe = model.module(torch.randn(8, 32, 64, device=device)).mean()
