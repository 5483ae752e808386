import os

import torch
import torch.distributed as dist
import torch.nn as nn

from meters import AverageMeter


def main():
    dist.init_process_group("nccl")
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    model = nn.Linear(32, 10).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    best = 0.0
    for epoch in range(10):
        acc = AverageMeter("acc", ":6.2f")
        print(acc.header())
        for i in range(100):
            x = torch.randn(16, 32).to(device)
            y = torch.randint(0, 10, (16,)).to(device)
            out = model(x)
            loss = nn.functional.cross_entropy(out, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            acc.update((out.argmax(1) == y).float().mean(), x.size(0))
            if i % 10 == 0:
                print(str(acc))
        acc.all_reduce(device)
        best = max(acc.avg, best)


if __name__ == "__main__":
    main()
