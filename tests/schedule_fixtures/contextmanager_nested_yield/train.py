"""Context managers whose yield sits inside a try or an if: a step timer
that synchronizes the device in its finally, and a profiler switched by a
flag.

    python train.py --steps 50
"""
import argparse
import time
from contextlib import contextmanager

import torch
import torch.nn as nn


@contextmanager
def timed(name):
    start = time.time()
    try:
        yield
    finally:
        torch.cuda.synchronize()
        print(name, time.time() - start)


@contextmanager
def maybe_profile(enabled):
    if enabled:
        with torch.profiler.profile() as prof:
            yield prof
    else:
        yield None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=10)
    p.add_argument("--profile", action="store_true")
    args = p.parse_args()
    model = nn.Linear(32, 32).cuda()
    opt = torch.optim.AdamW(model.parameters())
    with maybe_profile(args.profile) as prof:
        for step in range(args.steps):
            x = torch.randn(8, 32).cuda()
            with timed("step"):
                loss = model(x).pow(2).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
            if prof is not None:
                prof.step()
            print(step, loss.item())


if __name__ == "__main__":
    main()
