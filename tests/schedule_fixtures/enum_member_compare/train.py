import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp import ShardingStrategy


def main():
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    strategy = ShardingStrategy.SHARD_GRAD_OP
    kw = {}
    if strategy in (ShardingStrategy.HYBRID_SHARD, ShardingStrategy._HYBRID_SHARD_ZERO2):
        kw["device_mesh"] = init_device_mesh("cuda", (2, 1))
    model = FSDP(nn.Linear(64, 64, device="cuda"), sharding_strategy=strategy, device_id=local_rank, **kw)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        loss = model(torch.randn(8, 64, device="cuda")).sum()
        loss.backward()
        opt.step()
        opt.zero_grad()
        dist.all_reduce(loss.detach(), group=model.process_group)
        if strategy != ShardingStrategy.NO_SHARD:
            dist.barrier()
        if strategy == ShardingStrategy.FULL_SHARD:
            print(loss.item())


if __name__ == "__main__":
    main()
