import math
import os

import torch
import torch.distributed as dist
from torch import nn


def clip_grad_norm(parameters, max_norm, norm_type=2.0):
    grads = [p.grad for p in parameters]
    if norm_type == torch.inf:
        total = torch.stack([g.abs().max() for g in grads]).max()
        dist.all_reduce(total, op=dist.ReduceOp.MAX)
    else:
        total = torch.stack([g.norm(norm_type) for g in grads]).norm(norm_type) ** norm_type
        dist.all_reduce(total, op=dist.ReduceOp.SUM)
        total = total ** (1.0 / norm_type)
    coef = torch.clamp(max_norm / (total + 1e-6), max=1.0)
    for g in grads:
        g.mul_(coef)
    return total


def main():
    dist.init_process_group(backend="nccl")
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    model = nn.Linear(16, 16).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    best = math.inf
    for step in range(100):
        x = torch.randn(8, 16, device="cuda")
        loss = model(x).pow(2).mean()
        loss.backward()
        clip_grad_norm(list(model.parameters()), 1.0)
        opt.step()
        opt.zero_grad()
        if best < math.pi:
            print(loss.item())


if __name__ == "__main__":
    main()
