import os

import torch
import torch.distributed as dist
from torch import nn


class ParallelContext:
    """Groups kept under *_pg names: dp x tp = 2 x 2 over 4 ranks."""

    def __init__(self, tp, dp):
        rank = int(os.environ["RANK"])
        self.tp_pg = None
        self.dp_pg = None
        for start in range(0, tp * dp, tp):
            group = dist.new_group(ranks=list(range(start, start + tp)))
            if rank in range(start, start + tp):
                self.tp_pg = group
        for first in range(tp):
            group = dist.new_group(ranks=list(range(first, tp * dp, tp)))
            if rank % tp == first:
                self.dp_pg = group
        self.mp_pg = self.tp_pg
        self.dp_cp_pg = self.dp_pg


def main():
    dist.init_process_group(backend="nccl")
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    ctx = ParallelContext(tp=2, dp=2)
    model = nn.Linear(16, 16).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        x = torch.randn(8, 16, device="cuda")
        loss = model(x).pow(2).mean()
        loss.backward()
        for p in model.parameters():
            dist.all_reduce(p.grad, group=ctx.dp_pg)
        norm = torch.stack([p.grad.norm() for p in model.parameters()]).sum()
        dist.all_reduce(norm, group=ctx.mp_pg)
        opt.step()
        opt.zero_grad()
        handle = dist.all_reduce(loss.detach(), group=ctx.dp_cp_pg, async_op=True)
        handle.wait()


if __name__ == "__main__":
    main()
