import os
from dataclasses import dataclass
from enum import Enum, auto
from typing import Optional

import torch
import torch.distributed as dist
from torch import nn


class Mode(Enum):
    ALL_REDUCE = auto()
    REDUCE_SCATTER = auto()


@dataclass
class ParallelArgs:
    tp: int
    tp_mode: Optional[Mode] = None

    def __post_init__(self):
        if self.tp_mode is None:
            self.tp_mode = Mode.ALL_REDUCE
        if isinstance(self.tp_mode, str):
            self.tp_mode = Mode[self.tp_mode.upper()]


class RowLinear(nn.Linear):
    def __init__(self, n, mode):
        super().__init__(n, n)
        self.mode = mode

    def forward(self, x):
        y = super().forward(x)
        if self.mode is Mode.ALL_REDUCE:
            dist.all_reduce(y)
        else:
            out = torch.empty(y.shape[0] // 2, y.shape[1], device=y.device)
            dist.reduce_scatter_tensor(out, y)
            y = out
        return y


def main():
    dist.init_process_group(backend="nccl")
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    cfg = ParallelArgs(tp=2, tp_mode="reduce_scatter")
    model = RowLinear(16, cfg.tp_mode).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        x = torch.randn(8, 16, device="cuda")
        loss = model(x).pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
