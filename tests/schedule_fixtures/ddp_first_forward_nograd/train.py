# A start-up forward without gradients of the DDP-wrapped model (a FLOP
# count, a shape check) is DDP's first forward of all: its flag starts
# on, so it broadcasts the buffers once; it also turns the flag off, and
# every training forward after the first synced backward broadcasts.
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)
        self.register_buffer("freqs", torch.randn(8))

    def forward(self, x):
        return self.fc(x * self.freqs)


def main():
    dist.init_process_group("nccl")
    rank = int(os.environ["LOCAL_RANK"])
    device = torch.device("cuda", rank)
    model = DDP(Net().to(device), device_ids=[rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    with torch.no_grad():
        x = torch.zeros(1, 8, device=device)
        model(x)
    for step in range(1000):
        x = torch.randn(16, 8, device=device)
        loss = model(x).pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
