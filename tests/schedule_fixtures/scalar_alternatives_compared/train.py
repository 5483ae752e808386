import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


class Config:
    def __init__(self, strategy="sharded"):
        self.strategy = strategy


def main():
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    cfg = Config()
    if os.path.exists("single.flag"):
        cfg.strategy = "single"
    mode = "avg"
    if os.path.exists("sum.flag"):
        mode = "sum"
    elif os.path.exists("max.flag"):
        mode = "max"

    model = nn.Linear(32, 32).to("cuda")
    if cfg.strategy == "ddp":
        model = DDP(model, device_ids=[local_rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        x = torch.randn(8, 32, device="cuda")
        loss = model(x).sum()
        loss.backward()
        if cfg.strategy != "ddp":
            for p in model.parameters():
                dist.all_reduce(p.grad)
        opt.step()
        opt.zero_grad()
        if mode in ("sum", "avg", "max"):
            dist.all_reduce(loss.detach())
        if mode == "min":
            print(loss.item())
        if cfg.strategy == "single":
            print(float(loss))


if __name__ == "__main__":
    main()
