"""A periodic guard whose divisor is a float literal of an integral value:
`(step + 1) % 1e+2 == 0` over an int counter holds every 100 steps (float
arithmetic is exact on such ints), so the checkpoint's read of the device
state runs every 100 steps.

    python train.py
"""
import torch
import torch.nn as nn


def main():
    model = nn.Linear(8, 4).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(1000):
        x = torch.randn(16, 8, device="cuda")
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if (step + 1) % 1e+2 == 0:
            torch.save(model.state_dict(), "ckpt.pt")


if __name__ == "__main__":
    main()
