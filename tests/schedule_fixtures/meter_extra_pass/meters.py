"""Meters that keep what they are given.  After all_reduce their sums are
Python floats; an extra pass that gives them device tensors again makes
them device tensors on that path only."""
from enum import Enum

import torch
import torch.distributed as dist


class Kind(Enum):
    NONE = 0
    AVERAGE = 1


class Meter:
    def __init__(self, name, kind=Kind.AVERAGE):
        self.name = name
        self.kind = kind
        self.sum = 0
        self.count = 0
        self.avg = 0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count

    def all_reduce(self, device):
        total = torch.tensor([self.sum, self.count], dtype=torch.float32, device=device)
        dist.all_reduce(total)
        self.sum, self.count = total.tolist()
        self.avg = self.sum / self.count

    def summary(self):
        fmt = ""
        if self.kind is Kind.NONE:
            fmt = "{name}"
        elif self.kind is Kind.AVERAGE:
            fmt = "{name} {avg:.3f}"
        return fmt.format(**self.__dict__)
