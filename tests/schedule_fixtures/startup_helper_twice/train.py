"""A regression net whose normalisation tables are made on the device by
one helper, called twice before training (mean and std), and a scale made
once beside them.

    python train.py
"""
import torch
import torch.nn as nn


def device_table(values, device):
    return torch.tensor(values, device=device)


def main():
    device = torch.device("cuda")
    model = nn.Linear(4, 1).to(device)
    mean = device_table([0.5, 0.5, 0.5, 0.5], device)
    std = device_table([0.2, 0.2, 0.2, 0.2], device)
    scale = torch.tensor([2.0], device=device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        x = torch.randn(8, 4).to(device)
        loss = (model((x - mean) / std) * scale).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
