import os
import sys

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel as DDP

sys.path.insert(0, "src")
from acme.model import Net


def worker(rank, world_size, steps):
    os.environ.setdefault("MASTER_ADDR", "localhost")
    os.environ.setdefault("MASTER_PORT", "29500")
    dist.init_process_group("nccl", rank=rank, world_size=world_size)
    torch.cuda.set_device(rank)
    model = DDP(Net().cuda(rank), device_ids=[rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(steps):
        x = torch.randn(16, 64, device=rank)
        model(x).square().mean().backward()
        opt.step()
        opt.zero_grad()
    dist.destroy_process_group()


if __name__ == "__main__":
    world = torch.cuda.device_count()
    mp.spawn(worker, args=(world, 100), nprocs=world, join=True)
