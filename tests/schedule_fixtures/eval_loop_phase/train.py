"""A classifier trained by epochs; every --eval-every epochs a validation
pass casts each batch to the device's tensor type outside the no_grad
block and runs the model under no_grad.

    python train.py --eval-every 2
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def evaluate(model, loader):
    model.eval()
    hits = 0
    for x, y in loader:
        x = x.type(torch.cuda.FloatTensor)
        with torch.no_grad():
            pred = model(x).argmax(dim=1).cpu()
        hits += (pred == y).sum().item()
    model.train()
    return hits


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--eval-every", type=int, default=1)
    args = p.parse_args()

    device = torch.device("cuda")
    data = TensorDataset(torch.randn(2048, 20), torch.randint(0, 4, (2048,)))
    train_loader = DataLoader(data, batch_size=64, shuffle=True)
    val_loader = DataLoader(data, batch_size=256)
    model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 4)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(args.epochs):
        for x, y in train_loader:
            x, y = x.to(device), y.to(device)
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if epoch % args.eval_every == 0:
            evaluate(model, val_loader)


if __name__ == "__main__":
    main()
