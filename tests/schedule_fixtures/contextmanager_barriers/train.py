"""DDP training under torchrun whose dataset is prepared by local rank 0
first: a @contextmanager of the repository puts the other ranks at a
barrier before its yield and rank 0 at one after it.

    torchrun --nproc_per_node 2 train.py
"""
import os
from contextlib import contextmanager

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

LOCAL_RANK = int(os.getenv("LOCAL_RANK", -1))


@contextmanager
def zero_first(local_rank):
    if local_rank not in [-1, 0]:
        dist.barrier(device_ids=[local_rank])
    yield
    if local_rank == 0:
        dist.barrier(device_ids=[0])


def main():
    dist.init_process_group("nccl")
    device = torch.device("cuda", LOCAL_RANK)
    with zero_first(LOCAL_RANK):
        data = torch.randn(4096, 20)
    labels = torch.randint(0, 4, (4096,))
    model = DDP(nn.Linear(20, 4).to(device), device_ids=[LOCAL_RANK])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for i in range(0, 4096, 64):
        x = data[i:i + 64].to(device)
        y = labels[i:i + 64].to(device)
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
