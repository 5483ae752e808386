"""A model whose forward reads a device scalar in a loop of three, and
whose four repeated blocks each read one: per call of the model, and so
per step, the first runs three times and the second four.

    python train.py
"""
import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 16)

    def forward(self, x):
        if x.abs().max().item() > 100:
            x = x / 100
        return self.fc(x)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block() for _ in range(4)])
        self.head = nn.Linear(16, 1)

    def forward(self, x):
        for i in range(3):
            s = x.sum().item()
        for b in self.blocks:
            x = b(x)
        return self.head(x)


def main():
    device = torch.device("cuda")
    model = Net().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        x = torch.randn(8, 16, device=device)
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
