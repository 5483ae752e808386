"""A job that runs where it finds itself: on the GPU when the machine has
one, on the host otherwise (the form of pytorch/examples' mnist and of
guided-diffusion's dist_util.dev())."""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def dev():
    if torch.cuda.is_available():
        return torch.device("cuda")
    return torch.device("cpu")


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(16, 32)
        self.fc2 = nn.Linear(32, 4)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def evaluate(model, loader):
    model.eval()
    correct = 0
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(dev()), y.to(dev())
            correct += (model(x).argmax(1) == y).sum().item()
    model.train()
    return correct


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()
    data = TensorDataset(torch.randn(256, 16), torch.randint(0, 4, (256,)))
    train_loader = DataLoader(data, batch_size=32, shuffle=True)
    test_loader = DataLoader(data, batch_size=64)
    model = Net().to(dev())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(args.epochs):
        for x, y in train_loader:
            x, y = x.to(dev()), y.to(dev())
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, evaluate(model, test_loader))


if __name__ == "__main__":
    main()
