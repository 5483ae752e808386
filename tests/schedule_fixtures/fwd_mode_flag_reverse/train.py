"""A flow layer called twice in one forward, the second time in its
other direction (reverse=True): each direction takes its own branch of
the layer's forward, and each copies a host tensor to the device.  A
second layer runs reversed only in the model's infer(), which the job
calls every 10 steps to evaluate: that branch's copy runs then, not
every step.

    python train.py
"""
import torch
import torch.nn as nn


class Flip(nn.Module):
    def forward(self, x, reverse=False):
        x = torch.flip(x, [1])
        if not reverse:
            logdet = torch.zeros(x.size(0)).to(device=x.device)
            return x, logdet
        noise = torch.randn(x.size(0), 1).to(device=x.device)
        return x + 0.0 * noise


class Shift(nn.Module):
    def forward(self, x, reverse=False):
        if not reverse:
            return x + 1.0
        scale = torch.ones(x.size(0), 1).to(device=x.device)
        return (x - 1.0) * scale


class Flow(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 8)
        self.flip = Flip()
        self.shift = Shift()

    def forward(self, x):
        z, logdet = self.flip(self.shift(self.lin(x)))
        x_rec = self.flip(z, reverse=True)
        return (x_rec - x).pow(2).mean() - logdet.mean()

    def infer(self, z):
        return self.shift(z, reverse=True)


def main():
    model = Flow().cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        x = torch.randn(16, 8, device="cuda")
        loss = model(x)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 0:
            model.eval()
            with torch.no_grad():
                out = model.infer(x)
            model.train()


if __name__ == "__main__":
    main()
