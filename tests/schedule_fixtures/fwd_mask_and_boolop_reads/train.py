"""A spline flow's forward checks its input's range and selects the inputs
inside its interval with a boolean mask.  Both read the device in the
model's forward as in job code: `a < l or b > r` of 0-d device tensors
reads each comparison's truth on the host; x[mask] sizes its output from
the data (torch runs nonzero and reads the count).  An integer index is a
gather, no read.

    python train.py
"""
import torch
import torch.nn as nn


class Spline(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)

    def forward(self, x, left=-10.0, right=10.0):
        h = self.proj(x)
        if torch.min(h) < left or torch.max(h) > right:
            raise ValueError("input outside the spline's domain")
        inside = (x >= -1.0) & (x <= 1.0)
        out = torch.zeros_like(x)
        sel = h[inside]
        rows = torch.arange(x.size(0), device=x.device)
        first = h[rows, 0]
        return sel.sum() + out.sum() + first.sum()


def main():
    model = Spline().cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        x = torch.randn(16, 8, device="cuda")
        loss = model(x)
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
