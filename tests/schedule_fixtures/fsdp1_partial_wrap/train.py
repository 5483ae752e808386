# FSDP1 wraps built through functools.partial, one per entry of a
# ModuleDict, in a loop: sync_module_states=True (a keyword of the partial)
# broadcasts rank 0's states at each wrap; the wrapped module's own
# clip_grad_norm_ (FSDP's, not nn.Module's) all-reduces the norm over the
# ranks.  A second wrapper without sync_module_states broadcasts nothing.
import os
from functools import partial

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp import ShardingStrategy


class Trunk(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(32, 64)
        self.fc2 = nn.Linear(64, 64)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(64, 8)

    def forward(self, x):
        return self.proj(x)


def make_wrapper(local_rank, sync):
    return partial(
        FSDP,
        sharding_strategy=ShardingStrategy.SHARD_GRAD_OP,
        device_id=local_rank,
        sync_module_states=sync,
        use_orig_params=True,
    )


def main():
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    nets = nn.ModuleDict({"trunk": Trunk(), "head": Head()}).cuda()
    for k, v in nets.items():
        nets[k] = make_wrapper(local_rank, True)(v)
    probe = make_wrapper(local_rank, False)(nn.Linear(8, 1).cuda())
    opt = torch.optim.AdamW(list(nets.parameters()) + list(probe.parameters()), lr=1e-3)
    for step in range(100):
        x = torch.randn(16, 32, device="cuda")
        feats = nets["trunk"](x)
        loss = probe(nets["head"](feats)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        for v in nets.values():
            v.clip_grad_norm_(1.0)
        opt.step()


if __name__ == "__main__":
    main()
