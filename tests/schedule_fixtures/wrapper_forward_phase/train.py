"""A rectified-flow wrapper that is no nn.Module: its forward method draws
the timesteps on the CPU, moves them, calls the model and reads the
per-sample losses back.  What it does is the step's forward."""
import torch
import torch.nn as nn


class Flow:
    def __init__(self, model):
        self.model = model

    def forward(self, x):
        b = x.size(0)
        t = torch.sigmoid(torch.randn((b,)).to(x.device))
        z = torch.randn_like(x)
        zt = (1 - t[:, None]) * x + t[:, None] * z
        v = self.model(zt)
        per_sample = ((z - x - v) ** 2).mean(dim=1)
        losses = per_sample.detach().cpu().tolist()
        return per_sample.mean(), losses


def main():
    model = nn.Sequential(nn.Linear(16, 64), nn.SiLU(), nn.Linear(64, 16)).cuda()
    flow = Flow(model)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(1000):
        x = torch.randn(32, 16).cuda()
        opt.zero_grad()
        loss, losses = flow.forward(x)
        loss.backward()
        opt.step()
        print(step, loss.item(), max(losses))


if __name__ == "__main__":
    main()
