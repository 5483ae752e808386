import os

import torch
import torch.distributed as dist
from torch import nn


class Attention(nn.Linear):
    pass


class Norm(nn.LayerNorm):
    pass


# classes whose gradients are reduced by hand across the group
REDUCED = {Attention: "sum"}


def sync_grads(model):
    for module in model.modules():
        cls = type(module)
        if cls in REDUCED:
            for p in module.parameters(recurse=False):
                dist.all_reduce(p.grad)
        if Norm in REDUCED:
            for p in module.parameters(recurse=False):
                dist.broadcast(p.grad, 0)


def main():
    dist.init_process_group(backend="nccl")
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    model = nn.Sequential(Attention(16, 16), Norm(16)).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        x = torch.randn(8, 16, device="cuda")
        loss = model(x).pow(2).mean()
        loss.backward()
        sync_grads(model)
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
