"""torchrun DDP: the reference-script helpers that ask torch whether a
process group exists (dist.is_available() and dist.is_initialized())
before they use it.  init_process_group has run on every path by then, so
the guards hold: the loss dict is all-reduced and the reduced sum read."""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F


def is_dist_avail_and_initialized():
    if not dist.is_available():
        return False
    if not dist.is_initialized():
        return False
    return True


def get_world_size():
    if not is_dist_avail_and_initialized():
        return 1
    return dist.get_world_size()


def reduce_dict(input_dict):
    world_size = get_world_size()
    if world_size < 2:
        return input_dict
    with torch.no_grad():
        names = sorted(input_dict.keys())
        values = torch.stack([input_dict[k] for k in names], dim=0)
        dist.all_reduce(values)
        values /= world_size
        return {k: v for k, v in zip(names, values)}


def main():
    if is_dist_avail_and_initialized():
        print("a group already exists")
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    device = torch.device("cuda", local_rank)
    net = nn.Linear(16, 4).to(device)
    model = nn.parallel.DistributedDataParallel(net, device_ids=[local_rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(500):
        x = torch.randn(8, 16).to(device)
        y = torch.randint(0, 4, (8,)).to(device)
        out = model(x)
        loss_dict = {"ce": F.cross_entropy(out, y), "l2": out.pow(2).mean()}
        loss = loss_dict["ce"] + loss_dict["l2"]
        reduced = reduce_dict(loss_dict)
        total = sum(v for v in reduced.values())
        value = total.item()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 100 == 0:
            print(step, value)


if __name__ == "__main__":
    main()
