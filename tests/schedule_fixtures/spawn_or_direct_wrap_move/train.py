# One function trains on both paths of a GPU count the code does not pin:
# mp.spawn runs it once per GPU when there are several, else it is called
# directly.  It builds its models and moves them to its GPU on either path,
# so the move at start-up is sure wherever the models exist; under
# `if ngpus > 1:` it wraps them in DDP and calls .to(device) on the
# wrapper, whose module is already there: no second copy.
import torch
import torch.nn as nn
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel
from torch.distributed import init_process_group


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(64, 64)

    def forward(self, x):
        return self.fc(x)


def train(rank, ngpus):
    if ngpus > 1:
        init_process_group("nccl", init_method="tcp://localhost:23456", world_size=ngpus, rank=rank)
    device = torch.device("cuda:{:d}".format(rank))
    net = Net().to(device)
    head = nn.Linear(64, 1).to(device)
    if ngpus > 1:
        net = DistributedDataParallel(net, device_ids=[rank]).to(device)
        head = DistributedDataParallel(head, device_ids=[rank]).to(device)
    opt = torch.optim.SGD(list(net.parameters()) + list(head.parameters()), lr=0.1)
    for step in range(1000):
        x = torch.randn(16, 64).to(device)
        loss = head(net(x)).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


def main():
    ngpus = 0
    if torch.cuda.is_available():
        ngpus = torch.cuda.device_count()
    if ngpus > 1:
        mp.spawn(train, nprocs=ngpus, args=(ngpus,))
    else:
        train(0, ngpus)


if __name__ == "__main__":
    main()
