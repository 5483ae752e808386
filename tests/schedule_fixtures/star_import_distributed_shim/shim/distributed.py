"""A repository module re-exporting torch.distributed beside wrappers of its own."""
from typing import List, Optional

import torch
from torch import distributed as dist
from torch.distributed import *  # noqa


def all_reduce_coalesced(tensors: List[torch.Tensor], group: Optional[dist.ProcessGroup] = None):
    flat = torch.cat([t.view(-1) for t in tensors])
    dist.all_reduce(flat, group=group)
    return flat
