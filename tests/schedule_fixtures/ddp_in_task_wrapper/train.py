"""A task module (as timm's ClassificationTask) holds the model and the
loss; it wraps its model in DDP itself, and the job calls the task.  The
model has BatchNorm buffers and broadcast_buffers is on: DDP broadcasts
them from rank 0 where the task's forward calls the wrapped model, every
training step; the gradient all-reduce is at the job's backward."""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP


class Task(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def prepare_distributed(self, device_ids):
        self.model = DDP(self.model, device_ids=device_ids)

    def forward(self, x, target):
        out = self.model(x)
        return F.cross_entropy(out, target)


def main(steps=1000):
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    net = nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                        nn.Linear(8, 10)).cuda()
    task = Task(net)
    task.prepare_distributed([local_rank])
    opt = torch.optim.SGD(task.parameters(), lr=0.1)
    for step in range(steps):
        x = torch.randn(8, 3, 32, 32, device="cuda")
        y = torch.randint(0, 10, (8,), device="cuda")
        loss = task(x, y)
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
