# A start-up timing of the model before training (pycls's
# compute_time_full): 2 warm-up and 5 timed forwards without gradients,
# then 5 forward and backward passes that step no optimizer, each timed
# pass followed by a synchronize; then the training loop.  The step is the loop that updates the
# parameters, not the timing loop that only runs backward.  The first
# warm-up forward is DDP's first forward of all: its flag starts on, so it
# broadcasts the buffers once; the later no-grad ones find it off.
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)
        self.register_buffer("scale", torch.ones(8))

    def forward(self, x):
        return self.fc(x * self.scale)


@torch.no_grad()
def time_eval(model, x):
    for _ in range(2):
        model(x)
    for _ in range(5):
        model(x)
        torch.cuda.synchronize()


def time_train(model, x):
    for _ in range(5):
        loss = model(x).pow(2).mean()
        loss.backward()
        torch.cuda.synchronize()


def main():
    dist.init_process_group("nccl")
    rank = int(os.environ["LOCAL_RANK"])
    device = torch.device("cuda", rank)
    model = DDP(Net().to(device), device_ids=[rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.zeros(16, 8, device=device)
    time_eval(model, x)
    time_train(model, x)
    for step in range(1000):
        x = torch.randn(16, 8, device=device)
        loss = model(x).pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
