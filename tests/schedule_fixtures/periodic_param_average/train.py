# Periodic parameter averaging (local SGD by hand): every 16 steps each
# parameter is all-reduced and divided by the world size.  The periodic
# block communicates and reads nothing to the host: the step's own work,
# not logging; the loss printed every 100 steps is logging.
import os
import torch
import torch.nn as nn
import torch.distributed as dist

dist.init_process_group(backend="nccl")
local_rank = int(os.environ["LOCAL_RANK"])
device = torch.device("cuda", local_rank)
torch.cuda.set_device(device)
world = dist.get_world_size()

model = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 10)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

for step in range(5000):
    x = torch.randn(16, 32, device=device)
    y = torch.randint(0, 10, (16,), device=device)
    loss = nn.functional.cross_entropy(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 16 == 0:
        with torch.no_grad():
            for p in model.parameters():
                dist.all_reduce(p.data)
                p.data /= world
    if step % 100 == 0:
        dist.all_reduce(loss)
        print(f"step {step} loss {loss.item() / world:.4f}")
