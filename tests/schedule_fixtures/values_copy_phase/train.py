"""A classifier trained by epochs over a loader; each step the loss value
goes back to the device as a one-element tensor (a mean across ranks,
here one rank), and each epoch the meter's count and total do too.

    python train.py
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def reduce_mean(x):
    t = torch.tensor(x).cuda()
    t /= 1
    return t.item()


class Meter:
    def __init__(self):
        self.count = 0
        self.total = 0.0

    def update(self, v):
        self.count += 1
        self.total += v

    def synchronize(self):
        t = torch.tensor([self.count, self.total], dtype=torch.float64, device="cuda")
        self.count, self.total = t.tolist()


def main():
    device = torch.device("cuda")
    data = TensorDataset(torch.randn(4096, 20), torch.randint(0, 4, (4096,)))
    loader = DataLoader(data, batch_size=64, shuffle=True)
    model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 4)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    meter = Meter()
    for epoch in range(5):
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            loss_value = loss.item()
            meter.update(reduce_mean(loss_value))
        meter.synchronize()


if __name__ == "__main__":
    main()
