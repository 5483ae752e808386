# Worker processes started one per device in a loop: multiprocessing.Process
# with target=worker, as a launcher script without torchrun does.  Each
# process runs worker() once, so the model's move is start-up work done
# once (per process), not data work repeated by the loop that starts the
# processes; the step is worker's own loop.
import argparse
import multiprocessing as mp

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--devices", type=str, nargs="+", default=["cuda:0"])


def worker(rank, world_size, devices):
    model = nn.Linear(32, 32)
    model.to("cuda")
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        x = torch.randn(8, 32, device="cuda")
        loss = model(x).sum()
        loss.backward()
        opt.step()
        opt.zero_grad()
        print(loss.item())


if __name__ == "__main__":
    args = parser.parse_args()
    num = len(args.devices)
    mp.set_start_method("spawn")
    for rank in range(num):
        mp.Process(target=worker, args=(rank, num, args.devices)).start()
