"""A regression net over a loader; the loss function hands its parts to
the host through a helper, and the loop calls the same helper again for
its log line.

    python train.py
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def to_host(t):
    return t.detach().cpu()


def compute_loss(pred, y):
    mse = ((pred - y) ** 2).mean()
    l1 = (pred - y).abs().mean()
    loss = mse + 0.1 * l1
    return loss, to_host(torch.stack([mse, l1]))


def main():
    device = torch.device("cuda")
    data = TensorDataset(torch.randn(4096, 16), torch.randn(4096, 1))
    loader = DataLoader(data, batch_size=128, shuffle=True)
    model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 1)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    history = []
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss, parts = compute_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        history.append((parts, to_host(loss)))


if __name__ == "__main__":
    main()
