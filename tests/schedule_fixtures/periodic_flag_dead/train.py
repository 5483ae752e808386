import argparse

import torch
import torch.nn as nn


def evaluate(model):
    x = torch.randn(8, 32, device="cuda")
    return model(x).mean().item()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--test-freq", type=int, default=-1)
    parser.add_argument("--print-freq", type=int, default=1)
    args = parser.parse_args()
    model = nn.Linear(32, 1).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    nbatches = 1000

    for j in range(nbatches):
        x = torch.randn(8, 32, device="cuda")
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()

        should_print = ((j + 1) % args.print_freq == 0) or (j + 1 == nbatches)
        should_test = (args.test_freq > 0) and (
            ((j + 1) % args.test_freq == 0) or (j + 1 == nbatches)
        )
        if should_print:
            print(loss.item())
        if should_test:
            acc = evaluate(model)
            print(acc)


if __name__ == "__main__":
    main()
