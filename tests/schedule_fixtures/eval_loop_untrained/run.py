import argparse
import json

import torch
import torch.nn as nn


def add_group(parser, name, n):
    # a large, generated argument table: reading it costs many steps
    total = 0
    for i in range(n):
        total += i % 7
    parser.add_argument("--" + name, type=int, default=total)
    return parser


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--train-iters", type=int, default=None)
    parser.add_argument("--eval-iters", type=int, default=10)
    for g in range(8):
        add_group(parser, "group%d" % g, 60000)
    return parser.parse_args()


def train(model, opt, iters):
    for it in range(iters):
        loss = model(torch.randn(4, 8)).sum()
        loss.backward()
        opt.step()
        opt.zero_grad()


def evaluate(model, iters):
    model.eval()
    out = []
    with torch.no_grad():
        for it in range(iters):
            out.append(model(torch.randn(4, 8)).sum().tolist())
    with open("eval.json", "w") as f:
        json.dump(out, f)


def main():
    args = parse_args()
    model = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 1))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    if args.train_iters:
        train(model, opt, args.train_iters)
    evaluate(model, args.eval_iters)


if __name__ == "__main__":
    main()
