"""A byte-level language model trained step by step in a `while True` loop.
The counters `it` and `settled` start at 0 before the loop and grow in it:
a test on them is false on the first iteration only.  `resume` is set
before the loop and never again: a test on it is decided.

    python train.py --eval-interval 100 --warmup 10
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


def get_batch(device):
    x = torch.randint(0, 256, (8, 64))
    return x.to(device)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--eval-interval", type=int, default=100)
    p.add_argument("--max-iters", type=int, default=5000)
    p.add_argument("--warmup", type=int, default=10)
    args = p.parse_args()

    device = torch.device("cuda")
    model = nn.Sequential(nn.Embedding(256, 64), nn.Linear(64, 256)).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    resume = False
    it = 0
    settled = 0
    while True:
        if it % args.eval_interval == 0:
            if it > 0:
                torch.save(model.state_dict(), "ckpt.pt")
            if resume:
                print(model[0].weight.sum().item())
        x = get_batch(device)
        logits = model(x)
        loss = F.cross_entropy(logits.view(-1, 256), x.view(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        if settled >= args.warmup:
            print(f"step {it}: loss {loss.item():.4f}")
        it += 1
        settled += 1
        if it > args.max_iters:
            break


if __name__ == "__main__":
    main()
