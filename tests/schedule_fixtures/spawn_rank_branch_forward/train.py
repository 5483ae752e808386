"""mp.spawn over the GPUs; every process calls the same training function,
rank 0 with a logger and the others without, on the two paths of an
`if rank == 0:`.  The model's forward (a host mask copied to the device)
runs on every rank: its rows carry no rank condition; only the rank-0
logging does.

    python train.py
"""
import logging

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 8)

    def forward(self, x):
        mask = torch.ones(x.size(0), 1).to(x.device)
        return self.lin(x) * mask


def train(rank, model, opt, logger):
    for step in range(100):
        x = torch.randn(16, 8, device="cuda")
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if rank == 0 and step % 10 == 0:
            logger.info("loss %f", loss.item())


def run(rank, n_gpus):
    dist.init_process_group(backend="nccl", init_method="env://", world_size=n_gpus, rank=rank)
    torch.cuda.set_device(rank)
    model = DDP(Net().cuda(rank), device_ids=[rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    if rank == 0:
        train(rank, model, opt, logging.getLogger("train"))
    else:
        train(rank, model, opt, None)


def main():
    n_gpus = torch.cuda.device_count()
    mp.spawn(run, nprocs=n_gpus, args=(n_gpus,))


if __name__ == "__main__":
    main()
