# A script that starts its own processes (mp.spawn, world_size given to
# init_process_group: no launcher, no WORLD_SIZE) and gathers a dict of
# Python numbers with a pickle all_gather helper: the pickled bytes wrapped
# by a typed constructor and copied, sizes gathered and read one per rank.
import argparse
import pickle

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn


def get_world_size():
    if not dist.is_available():
        return 1
    if not dist.is_initialized():
        return 1
    return dist.get_world_size()


def all_gather(data):
    world_size = get_world_size()
    if world_size == 1:
        return [data]
    storage = torch.ByteStorage.from_buffer(pickle.dumps(data))
    tensor = torch.ByteTensor(storage).to("cuda")
    local_size = torch.IntTensor([tensor.numel()]).to("cuda")
    size_list = [torch.IntTensor([1]).to("cuda") for _ in range(world_size)]
    dist.all_gather(size_list, local_size)
    size_list = [int(size.item()) for size in size_list]
    return size_list


def main(args):
    model = nn.Linear(32, 32).to("cuda")
    if get_world_size() > 1:
        model = nn.parallel.DistributedDataParallel(model, device_ids=[torch.cuda.current_device()])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        x = torch.randn(8, 32).to("cuda")
        loss = model(x).sum()
        loss.backward()
        opt.step()
        opt.zero_grad()
        all_gather({"n": x.shape[0]})


def worker(local_rank, fn, world_size, args):
    try:
        dist.init_process_group(backend="nccl", init_method="tcp://127.0.0.1:23456",
                                world_size=world_size, rank=local_rank)
    except Exception:
        raise OSError("failed to initialize NCCL groups")
    torch.cuda.set_device(local_rank)
    fn(args)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--n_gpu", type=int, default=1)
    args = parser.parse_args()
    if args.n_gpu > 1:
        mp.spawn(worker, nprocs=args.n_gpu, args=(main, args.n_gpu, args))
    else:
        main(args)
