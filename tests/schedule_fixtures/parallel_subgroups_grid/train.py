import argparse
import os

import torch
import torch.distributed as dist
import torch.nn as nn


class Groups:
    def __init__(self, tp_size, pp_size, dp_size):
        world = dist.get_world_size()
        self.grid = torch.arange(world).view(dp_size, pp_size, tp_size)
        self.tp_group = dist.new_subgroups_by_enumeration(
            [self.grid[d, p, :].tolist() for d in range(dp_size) for p in range(pp_size)])[0]
        self.pp_group = dist.new_subgroups_by_enumeration(
            [self.grid[d, :, t].tolist() for d in range(dp_size) for t in range(tp_size)])[0]
        self.tp_world_size = dist.get_world_size(group=self.tp_group)
        self.pp_world_size = dist.get_world_size(group=self.pp_group)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tp", type=int, default=1)
    parser.add_argument("--pp", type=int, default=1)
    parser.add_argument("--dp", type=int, default=1)
    args = parser.parse_args()
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    dist.init_process_group(backend="nccl")
    groups = Groups(tp_size=args.tp, pp_size=args.pp, dp_size=args.dp)
    model = nn.Linear(16, 16).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(10):
        loss = model(torch.randn(4, 16, device="cuda")).sum()
        loss.backward()
        if groups.pp_world_size > 1:
            dist.all_reduce(loss, group=groups.pp_group)
        else:
            print(loss.item())
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
