"""A classifier trained by epochs and validated after each one by a
function decorated with a repository's decorator factory: the factory's
decorator hands back torch.inference_mode()(fn) or torch.no_grad()(fn),
chosen by the environment (both run the function without gradients).

    python train.py
"""
import os

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def smart_no_grad(new_api=os.environ.get("USE_INFERENCE_MODE", "1") == "1"):
    def decorate(fn):
        return (torch.inference_mode if new_api else torch.no_grad)()(fn)

    return decorate


@smart_no_grad()
def evaluate(model, loader, device):
    model.eval()
    preds = []
    for x, y in loader:
        x = x.to(device)
        preds.append(model(x).argmax(dim=1).cpu())
    model.train()
    return preds


def main():
    device = torch.device("cuda")
    data = TensorDataset(torch.randn(2048, 20), torch.randint(0, 4, (2048,)))
    train_loader = DataLoader(data, batch_size=64, shuffle=True)
    val_loader = DataLoader(data, batch_size=256)
    model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 4)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(10):
        for x, y in train_loader:
            x, y = x.to(device), y.to(device)
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        evaluate(model, val_loader, device)


if __name__ == "__main__":
    main()
