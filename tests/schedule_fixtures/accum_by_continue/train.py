"""Gradient accumulation written as an early `continue` (GaLore's
torchrun_main.py, ReLoRA): a pass counter advanced at the top of every
pass of the loader loop, the backward on every pass, then
`if global_step % args.accum != 0: continue` -- the optimizer step and
what follows it run on every accum-th pass only.  With --accum 4 a pass is
a micro-step and four make a step: the batch copy and the token count read
run every micro-step, the loss read after the optimizer step every step.
A step counter bumped after the continue counts steps: its guard `% 5`
holds every 5 steps (20 passes)."""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--accum", type=int, default=1)
    args = p.parse_args()
    model = nn.Linear(32, 4).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    data = TensorDataset(torch.randn(512, 32), torch.randint(0, 4, (512,)))
    loader = DataLoader(data, batch_size=16)
    global_step = 0
    update_step = 0
    tokens = 0
    for x, y in loader:
        global_step += 1
        x = x.cuda()
        y = y.cuda()
        tokens += (y != 0).sum().item()
        loss = nn.functional.cross_entropy(model(x), y) / args.accum
        loss.backward()
        if global_step % args.accum != 0:
            continue
        opt.step()
        opt.zero_grad()
        update_step += 1
        print(global_step, tokens, loss.item())
        if update_step % 5 == 0:
            print("every 5 steps", loss.item())


if __name__ == "__main__":
    main()
