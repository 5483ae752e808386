"""A detector-like model trained by epochs and evaluated after each epoch:
its forward takes paths on self.training.  In training mode (model.train()
at the top of each epoch) it returns its losses; in eval mode
(model.eval() in evaluate()) it post-processes its scores (a one-argument
torch.where, whose size depends on the data) and scales the boxes by a
tensor of Python numbers made on the device.  What runs on the eval paths
only is the evaluation's, as often as evaluate() calls the model."""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 5)

    def forward(self, x, scale):
        y = self.fc(x)
        keep = torch.where(y[:, 4] > 0)[0]
        if self.training:
            hard = torch.where(y[:, 4] < -1)[0]
            return {"loss": y[keep].abs().mean() + y[hard].pow(2).mean()}
        boxes = y[keep, :4]
        if not self.training:
            ratio = torch.tensor(scale, dtype=torch.float32, device=boxes.device)
            boxes = boxes * ratio
        return boxes


class Net(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.head = Head()
        self.scale = scale

    def forward(self, x):
        out = self.head(x, self.scale)
        if self.training:
            return out
        top = torch.where(out[:, 0] > 0.5)[0]
        return out[top]


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    n = 0
    for (x,) in loader:
        x = x.to(device)
        dets = model(x)
        n += len(dets)
    return n


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--scale", type=float, default=0.5)
    p.add_argument("--data", default="features.pt")
    args = p.parse_args()

    device = torch.device("cuda")
    data = TensorDataset(torch.load(args.data))
    train_loader = DataLoader(data, batch_size=32, shuffle=True)
    val_loader = DataLoader(data, batch_size=64)
    model = Net(args.scale).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(args.epochs):
        model.train()
        for (x,) in train_loader:
            x = x.to(device)
            losses = model(x)
            loss = losses["loss"]
            opt.zero_grad()
            loss.backward()
            opt.step()
        evaluate(model, val_loader, device)


if __name__ == "__main__":
    main()
