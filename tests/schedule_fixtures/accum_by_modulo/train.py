"""Gradient accumulation written by hand (ConvNeXt's --update_freq): the
backward runs on every pass of the loader loop, the optimizer step under
`if (i + 1) % args.update_freq == 0:` on the loop's own counter.  With
--update_freq 4 a pass is a micro-step and four make a step: the batch
copies and the loss read run every micro-step, the grad-norm read under
the guard every step, the pass counter's `% 10` inside that block every
lcm(10, 4) = 20 passes (5 steps), the log every update_freq * log_steps =
40 passes every 10 steps."""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--update_freq", type=int, default=1)
    p.add_argument("--log_steps", type=int, default=10)
    args = p.parse_args()
    model = nn.Linear(32, 4).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    data = TensorDataset(torch.randn(512, 32), torch.randint(0, 4, (512,)))
    loader = DataLoader(data, batch_size=16)
    for epoch in range(3):
        for i, (x, y) in enumerate(loader):
            x = x.cuda()
            y = y.cuda()
            loss = nn.functional.cross_entropy(model(x), y) / args.update_freq
            loss.backward()
            loss_value = loss.item()
            if (i + 1) % args.update_freq == 0:
                norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                print("grad norm", norm.item())
                opt.step()
                opt.zero_grad()
                if (i + 1) % 10 == 0:
                    print("norm", norm.item())
            if (i + 1) % (args.update_freq * args.log_steps) == 0:
                print(epoch, i, loss_value)


if __name__ == "__main__":
    main()
