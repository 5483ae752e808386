"""Training with an evaluation every other epoch, decided inside the
evaluation helper from the epoch number the loop passes it.

    python train.py --epochs 10
"""
import argparse

import torch
import torch.nn as nn


def evaluate(model, data, epoch, args):
    if (epoch % args.eval_every) != 0 and epoch != args.epochs:
        return {}
    model.eval()
    correct = 0
    with torch.no_grad():
        for x, y in data:
            x = x.cuda(non_blocking=True)
            correct += (model(x).argmax(1).cpu() == y).sum().item()
    model.train()
    return {"correct": correct}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--eval-every", type=int, default=2)
    args = p.parse_args()
    model = nn.Linear(8, 4).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    train = [(torch.randn(16, 8), torch.randint(0, 4, (16,))) for _ in range(10)]
    val = [(torch.randn(16, 8), torch.randint(0, 4, (16,))) for _ in range(3)]
    for epoch in range(args.epochs):
        for x, y in train:
            x, y = x.cuda(), y.cuda()
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        done = epoch + 1
        metrics = evaluate(model, val, done, args)
        print(done, metrics)


if __name__ == "__main__":
    main()
