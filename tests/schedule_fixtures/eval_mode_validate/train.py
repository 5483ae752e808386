import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda")


def train(model, loader, opt):
    model.train()
    total = 0.0
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    return total


def validate(model, loader):
    model.eval()
    total = 0.0
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = nn.functional.cross_entropy(model(x), y)
        total += loss.item()
    return total


def main():
    model = nn.Linear(8, 4).to(device)
    opt = torch.optim.Adam(model.parameters())
    train_dl = DataLoader(TensorDataset(torch.randn(256, 8), torch.randint(0, 4, (256,))), batch_size=32)
    val_dl = DataLoader(TensorDataset(torch.randn(64, 8), torch.randint(0, 4, (64,))), batch_size=32)
    for epoch in range(5):
        tl = train(model, train_dl, opt)
        vl = validate(model, val_dl)
        print(epoch, tl, vl)


if __name__ == "__main__":
    main()
