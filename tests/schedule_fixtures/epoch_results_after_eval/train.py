"""Data-parallel training by epochs under torchrun; after each epoch's
pass over the training data, an evaluation pass sums three losses on the
device; then, in the epoch loop, the sums are all-reduced and read one by
one in loops over the dict, and a barrier precedes rank 0's save.

    torchrun --nproc_per_node=2 train.py
"""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

dist.init_process_group(backend="nccl")
rank = int(os.environ["RANK"])
device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
data = TensorDataset(torch.randn(1024, 16), torch.randn(1024, 1))
train_loader = DataLoader(data, batch_size=32, shuffle=True)
val_loader = DataLoader(data, batch_size=64)
model = nn.Linear(16, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)

for epoch in range(5):
    model.train()
    for x, y in train_loader:
        x, y = x.to(device), y.to(device)
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        dist.all_reduce(loss)
        opt.step()

    model.eval()
    logs = {k: torch.zeros((), device=device) for k in ("mse", "l1", "count")}
    for x, y in val_loader:
        x, y = x.to(device), y.to(device)
        with torch.no_grad():
            pred = model(x)
        logs["mse"] += nn.functional.mse_loss(pred, y, reduction="sum")
        logs["l1"] += nn.functional.l1_loss(pred, y, reduction="sum")
        logs["count"] += torch.ones((), device=device) * x.shape[0]

    for v in logs.values():
        dist.all_reduce(v)
    line = ""
    for k, v in logs.items():
        line += f"{k}: {v.item():.3f} "
    print(line)

    dist.barrier()
    if rank == 0:
        torch.save(model.state_dict(), "model.pt")
