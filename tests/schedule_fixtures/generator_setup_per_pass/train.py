"""Trains a small classifier on random data; batches come through a generator
that normalizes them on the device.

    python train.py --epochs 3
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

MEAN = [0.485, 0.456, 0.406]


def normalized_batches(loader, device):
    mean = torch.tensor(MEAN).view(1, 3, 1, 1).to(device)
    for images, labels in loader:
        images = images.to(device, non_blocking=True)
        labels = labels.to(device, non_blocking=True)
        yield images - mean, labels


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--batch-size", type=int, default=32)
    args = p.parse_args()

    device = "cuda"
    data = TensorDataset(torch.randn(512, 3, 32, 32), torch.randint(0, 10, (512,)))
    loader = DataLoader(data, batch_size=args.batch_size, shuffle=True, pin_memory=True)
    model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                          nn.Flatten(), nn.Linear(16, 10)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(args.epochs):
        for images, labels in normalized_batches(loader, device):
            loss = loss_fn(model(images), labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")
    torch.save(model.state_dict(), "model.pt")


if __name__ == "__main__":
    main()
