"""A training loop over a prefetching wrapper of the DataLoader: a class
of the job whose __iter__ is a generator that copies each pinned batch to
the device (non_blocking) and normalises it there before yielding it.

    python train.py
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Prefetcher:
    def __init__(self, loader, device):
        self.loader = loader
        self.device = device
        self.mean = torch.tensor([0.5], device=device)

    def __iter__(self):
        for x, y in self.loader:
            x = x.to(self.device, non_blocking=True)
            y = y.to(self.device, non_blocking=True)
            yield x - self.mean, y

    def __len__(self):
        return len(self.loader)


def main():
    device = torch.device("cuda")
    data = TensorDataset(torch.randn(2048, 20), torch.randint(0, 4, (2048,)))
    loader = Prefetcher(DataLoader(data, batch_size=64, shuffle=True, pin_memory=True), device)
    model = nn.Linear(20, 4).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(10):
        for i, (x, y) in enumerate(loader):
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()


if __name__ == "__main__":
    main()
