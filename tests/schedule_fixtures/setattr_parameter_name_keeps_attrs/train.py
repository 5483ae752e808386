import os

import torch
import torch.distributed as dist
from torch import nn


class ShardedParameter(nn.Parameter):
    pass


def mark_all_parameters_as_sharded(module):
    for _, submodule in module.named_modules():
        for param_name, param in list(submodule.named_parameters(recurse=False)):
            setattr(submodule, param_name, ShardedParameter(param.detach()))


class ParallelLinear(nn.Linear):
    def __init__(self, n, world_size):
        super().__init__(n, n)
        self.world_size = world_size
        mark_all_parameters_as_sharded(self)

    def forward(self, x):
        y = super().forward(x)
        if self.world_size > 1:
            dist.all_reduce(y)
        return y


def main():
    dist.init_process_group(backend="nccl")
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    model = ParallelLinear(16, 1).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        x = torch.randn(8, 16, device="cuda")
        loss = model(x).pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
