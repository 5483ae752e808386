"""DDP (torchrun) whose backend is chosen at run time: NCCL when this
torch build has it, else Gloo.  After each epoch rank 0 broadcasts a stop
flag with broadcast_object_list.  On NCCL that pickles the flag into a
byte tensor copied to the current CUDA device and reads its size on the
host; on Gloo it stays on the host.  Which one runs is not in the code,
so the copy and the sync are rows under the backend's condition."""
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

    dist.init_process_group(backend="nccl" if dist.is_nccl_available() else "gloo")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    device = torch.device("cuda", local_rank)
    model = DDP(nn.Linear(16, 4).to(device), device_ids=[local_rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(args.epochs):
        for step in range(args.steps):
            x = torch.randn(32, 16, device=device)
            y = torch.randint(0, 4, (32,), device=device)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        flag = [epoch + 1 >= args.epochs]
        dist.broadcast_object_list(flag, 0)
        if flag[0]:
            break


if __name__ == "__main__":
    main()
