"""A classifier trained for --epochs epochs over a loader; a checkpoint every
--save-every epochs from the first process of each node.

    python train.py --epochs 100 --save-every 20
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def grad_norm(model):
    with torch.no_grad():
        norms = [p.grad.norm() for p in model.parameters() if p.grad is not None]
        return torch.stack(norms).norm().item()


def save_checkpoint(model, epoch, last_loss, path):
    meta = {"epoch": epoch, "loss": last_loss.item()}
    torch.save({"model": model.state_dict(), "meta": meta}, path)


def evaluate(model, loader, device):
    model.eval()
    correct = 0
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            correct += (model(x).argmax(dim=1) == y).sum().item()
    model.train()
    return correct


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=100)
    p.add_argument("--save-every", type=int, default=20)
    p.add_argument("--rank", type=int, default=0)
    p.add_argument("--ngpus", type=int, default=1)
    args = p.parse_args()

    device = torch.device("cuda")
    data = TensorDataset(torch.randn(4096, 20), torch.randint(0, 4, (4096,)))
    train_loader = DataLoader(data, batch_size=64, shuffle=True)
    val_loader = DataLoader(data, batch_size=256)
    model = nn.Sequential(nn.Linear(20, 128), nn.ReLU(), nn.Linear(128, 4)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)

    for epoch in range(args.epochs):
        for x, y in train_loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            gn = grad_norm(model)
            opt.step()
        if args.rank % args.ngpus == 0 and epoch % args.save_every == 0:
            save_checkpoint(model, epoch, loss, "ckpt.pt")
        acc = evaluate(model, val_loader, device)
        print(f"epoch {epoch}: grad norm {gn:.3f}, accuracy {acc / len(data):.3f}")


if __name__ == "__main__":
    main()
