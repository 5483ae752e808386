import functools
import os

import torch
import torch.distributed as dist
from torch import nn


@functools.lru_cache()
def _object_group():
    """Every rank, on gloo, for Python objects (detectron2's comm)."""
    if dist.get_backend() == "nccl":
        return dist.new_group(backend="gloo")
    return dist.group.WORLD


def all_gather(data):
    output = [None for _ in range(dist.get_world_size())]
    dist.all_gather_object(output, data, group=_object_group())
    return output


def main():
    dist.init_process_group(backend="gloo")
    world = dist.new_group()
    model = nn.Linear(16, 16)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    seeds = all_gather(int(os.environ["RANK"]))
    torch.manual_seed(seeds[0])
    for step in range(100):
        x = torch.randn(8, 16)
        loss = model(x).pow(2).mean()
        loss.backward()
        for p in model.parameters():
            dist.all_reduce(p.grad, group=world)
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
