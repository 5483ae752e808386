import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


def main():
    dist.init_process_group(backend="nccl")
    rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(rank)
    model = nn.Linear(10, 5).to(rank)
    ddp_model = DDP(model, device_ids=[rank])
    opt = torch.optim.SGD(ddp_model.parameters(), lr=0.01)
    for step in range(100):
        x = torch.randn(20, 10)
        out = ddp_model(x)
        y = torch.randn(20, 5, device=rank)
        loss = nn.functional.mse_loss(out, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        z = ddp_model(torch.randn(4, 10, device=rank))
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
