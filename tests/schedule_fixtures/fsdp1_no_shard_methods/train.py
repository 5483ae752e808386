# FSDP1 with ShardingStrategy.NO_SHARD shards nothing: gradients are
# all-reduced in backward as DDP does; its clip_grad_norm_ is torch's plain
# one (no communication) and its FULL_STATE_DICT state_dict() has nothing
# to gather.  The same calls through the class (FSDP.clip_grad_norm_(m))
# follow the same rule.
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp import ShardingStrategy


def main():
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    model = FSDP(nn.Linear(32, 8).cuda(), device_id=local_rank, sharding_strategy=ShardingStrategy.NO_SHARD)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        x = torch.randn(16, 32, device="cuda")
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        model.clip_grad_norm_(1.0)
        FSDP.clip_grad_norm_(model, 1.0)
        opt.step()
    sd = model.state_dict()
    torch.save(sd, "final.pt")


if __name__ == "__main__":
    main()
