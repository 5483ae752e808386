import math
import torch
import torch.nn as nn


def emb(t, dim):
    half = dim // 2
    freqs = torch.exp(-math.log(10000) * torch.arange(start=0, end=half, dtype=torch.float32) / half).to(device=t.device)
    return t[:, None].float() * freqs[None]


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)

    def forward(self, x, t):
        return self.fc(x) + emb(t, 8)


def main():
    device = torch.device("cuda")
    model = Net().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(10):
        x = torch.randn(2, 8).to(device)
        t = torch.randint(0, 10, (2,)).to(device)
        loss = model(x, t).sum()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
