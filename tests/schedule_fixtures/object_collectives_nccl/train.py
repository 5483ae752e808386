"""DDP over NCCL (torchrun): after each epoch every rank gathers the
others' epoch statistics, a dict of Python numbers, with
dist.all_gather_object; rank 0 broadcasts a stop flag with
broadcast_object_list.  On NCCL both pickle the objects into a byte tensor
copied to the current CUDA device and read the sizes on the host."""
import argparse
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=5)
    p.add_argument("--steps", type=int, default=100)
    args = p.parse_args()

    dist.init_process_group(backend="nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    device = torch.device("cuda", local_rank)
    model = DDP(nn.Linear(16, 4).to(device), device_ids=[local_rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(args.epochs):
        total = 0.0
        for step in range(args.steps):
            x = torch.randn(32, 16, device=device)
            y = torch.randint(0, 4, (32,), device=device)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        stats = {"epoch": epoch, "steps": args.steps}
        gathered = [None] * dist.get_world_size()
        dist.all_gather_object(gathered, stats)
        flag = [epoch + 1 >= args.epochs]
        dist.broadcast_object_list(flag, src=0)
        if flag[0]:
            break
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
