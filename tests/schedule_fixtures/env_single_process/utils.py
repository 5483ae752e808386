# Distributed helpers in the style of DETR's util/misc.py: each one returns
# early when the job runs as a single process.
import os

import torch
import torch.distributed as dist


def init_distributed():
    if 'RANK' in os.environ and 'WORLD_SIZE' in os.environ:
        dist.init_process_group('nccl')
        torch.cuda.set_device(int(os.environ['LOCAL_RANK']))
        return True
    print('not using distributed mode')
    return False


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


def is_main_process():
    if not is_dist_avail_and_initialized():
        return True
    return dist.get_rank() == 0


def reduce_mean(t):
    world_size = get_world_size()
    if world_size == 1:
        return t
    t = t.clone()
    dist.all_reduce(t)
    return t / world_size


def gather_sizes(t):
    if get_world_size() == 1:
        return [t.numel()]
    local = torch.tensor([t.numel()], device='cuda')
    sizes = [torch.zeros_like(local) for _ in range(get_world_size())]
    dist.all_gather(sizes, local)
    return [int(s.item()) for s in sizes]
