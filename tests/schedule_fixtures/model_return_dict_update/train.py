"""A detection-style model whose forward returns a dict of losses it
builds itself: an empty dict filled by update() from each head's dict.
The job sums the returned losses and reads one entry and the sum."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Head(nn.Module):
    def __init__(self, name):
        super().__init__()
        self.name = name
        self.fc = nn.Linear(32, 4)

    def forward(self, x, y):
        return {"loss_" + self.name: F.cross_entropy(self.fc(x), y)}


class Detector(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(32, 32)
        self.cls = Head("cls")
        self.box = Head("box")

    def forward(self, x, y):
        h = torch.relu(self.body(x))
        losses = {}
        losses.update(self.cls(h, y))
        losses.update(self.box(h, y))
        return losses


def main():
    device = torch.device("cuda")
    model = Detector().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(1000):
        x = torch.randn(8, 32).to(device)
        y = torch.randint(0, 4, (8,)).to(device)
        loss_dict = model(x, y)
        loss = sum(v for v in loss_dict.values())
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 0:
            total = loss.item()
            cls = loss_dict["loss_cls"].item()
            print(step, total, cls)


if __name__ == "__main__":
    main()
