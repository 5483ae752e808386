"""An evaluation helper called from two places of one periodic block (on
the train split, then on the test split), each call with a loop of a known
count: its copy and its read run 4 + 2 = 6 times every 100 steps, the sum
of the two calls' counts.

    python train.py
"""
import torch
import torch.nn as nn


@torch.no_grad()
def evaluate(model, batches):
    total = 0.0
    for k in range(batches):
        x = torch.randn(8, 16).to("cuda")
        total += model(x).sum().item()
    return total


def main():
    model = nn.Linear(16, 1).to("cuda")
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(1000):
        x = torch.randn(8, 16, device="cuda")
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 100 == 0:
            train_loss = evaluate(model, 4)
            test_loss = evaluate(model, 2)
            print(train_loss, test_loss)


if __name__ == "__main__":
    main()
