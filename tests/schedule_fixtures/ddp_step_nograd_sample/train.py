# A DDP model with buffers trained under torchrun; every 100 steps rank 0
# reconstructs a sample through the wrapper under no_grad, in the step's
# own body (no loop of its own).  DDP broadcasts buffers before a forward
# that follows a synced training forward: the sample's forward always
# does, since the step's training forward precedes it.
import os

import torch
import torch.distributed as dist
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(32, 32)
        self.register_buffer("avg", torch.zeros(32))

    def forward(self, x):
        return self.fc(x) + self.avg


dist.init_process_group("nccl")
rank = int(os.environ["RANK"])
torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
model = nn.parallel.DistributedDataParallel(Net().cuda())
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for i in range(1000):
    x = torch.randn(8, 32, device="cuda")
    loss = model(x).sum()
    loss.backward()
    opt.step()
    opt.zero_grad()
    if rank == 0 and i % 100 == 0:
        model.eval()
        with torch.no_grad():
            out = model(x[:4])
        model.train()
