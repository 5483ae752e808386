import os

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel


def build(dp):
    model = nn.Linear(16, 16).cuda()
    make_ddp = dp > 1
    if make_ddp is True:
        model = DistributedDataParallel(model, broadcast_buffers=False)
    return model


def main():
    dist.init_process_group(backend="nccl")
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    model = build(int(os.environ["WORLD_SIZE"]))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        x = torch.randn(8, 16, device="cuda")
        loss = model(x).pow(2).mean()
        loss.backward()
        if not isinstance(model, DistributedDataParallel):
            for p in model.parameters():
                dist.all_reduce(p.grad)
        unwrapped = model.module if isinstance(model, DistributedDataParallel) else model
        torch.nn.utils.clip_grad_norm_(unwrapped.parameters(), 1.0)
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
