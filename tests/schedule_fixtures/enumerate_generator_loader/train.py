"""An image classifier trained by epochs; the epoch function reads the
loader through a logger's generator (log_every yields each batch and
times it) wrapped in enumerate().

    python train.py
"""
import torch
import torch.nn as nn
import torchvision
from torch.utils.data import DataLoader


class Logger:
    def log_every(self, iterable, n):
        i = 0
        for obj in iterable:
            yield obj
            i += 1


def train_one_epoch(model, loader, opt, device):
    ml = Logger()
    for step, (samples, _) in enumerate(ml.log_every(loader, 20)):
        samples = samples.to(device, non_blocking=True)
        loss = model(samples).sum()
        loss.backward()
        opt.step()


def main():
    device = torch.device("cuda")
    ds = torchvision.datasets.ImageFolder("/data")
    loader = DataLoader(ds, batch_size=64, pin_memory=True)
    model = nn.Linear(4, 4).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(3):
        train_one_epoch(model, loader, opt, device)


if __name__ == "__main__":
    main()
