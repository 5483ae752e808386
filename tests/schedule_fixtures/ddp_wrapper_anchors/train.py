"""DDP over a torchvision ResNet under torchrun: the wrapper's collectives
happen at the forward and backward calls, in helpers of the step."""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torchvision
from torch.nn.parallel import DistributedDataParallel as DDP


def reduce_mean(t):
    t = t.clone()
    dist.all_reduce(t, op=dist.ReduceOp.SUM)
    return t / dist.get_world_size()


def backward_step(loss, opt):
    opt.zero_grad()
    loss.backward()
    opt.step()


def main():
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    device = torch.device("cuda", local_rank)
    model = torchvision.models.resnet18().to(device)
    model = DDP(model, device_ids=[local_rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    criterion = nn.CrossEntropyLoss()
    for step in range(1000):
        x = torch.randn(32, 3, 224, 224).to(device)
        y = torch.randint(0, 1000, (32,)).to(device)
        loss = criterion(model(x), y)
        backward_step(loss, opt)
        if step % 100 == 0:
            with torch.no_grad():
                val = criterion(model(x), y)
            print(reduce_mean(val).item())
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
