import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp import ShardingStrategy


def grad_norm(params, process_group=None):
    norms = torch.stack([p.grad.norm() for p in params]) ** 2
    dst = 0
    if process_group is not None:
        dst = dist.get_global_rank(process_group, 0)
    dist.reduce(norms, dst, group=process_group)
    return norms.sum() ** 0.5


class Trainer:
    def __init__(self, model, opt):
        self.dist_model = model
        self.opt = opt

    def step(self, x):
        loss = self.dist_model(x).sum()
        loss.backward()
        total = grad_norm(list(self.dist_model.parameters()), process_group=self.dist_model.process_group)
        flags = torch.zeros(1, device="cuda")
        dist.all_reduce(flags, group=self.dist_model.process_group)
        self.opt.step()
        self.opt.zero_grad()
        return total


def main():
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    model = FSDP(nn.Linear(64, 64, device="cuda"), sharding_strategy=ShardingStrategy.SHARD_GRAD_OP, device_id=local_rank)
    trainer = Trainer(model, torch.optim.AdamW(model.parameters(), lr=1e-3))
    for step in range(100):
        x = torch.randn(8, 64, device="cuda")
        trainer.step(x)


if __name__ == "__main__":
    main()
