"""A meter helper whose loop runs over its own keyword arguments, called
twice per step with a different number of them: the .item() in its loop
runs three times a step, which neither call alone tells.

    python train.py
"""
import torch
import torch.nn as nn


class Meters:
    def __init__(self):
        self.values = {}

    def update(self, **kwargs):
        for k, v in kwargs.items():
            if isinstance(v, torch.Tensor):
                v = v.item()
            self.values[k] = v


def main():
    device = torch.device("cuda")
    model = nn.Linear(16, 1).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    meters = Meters()
    for step in range(100):
        x = torch.randn(8, 16, device=device)
        out = model(x)
        loss = out.pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        meters.update(loss=loss)
        meters.update(out_mean=out.mean(), out_max=out.max())


if __name__ == "__main__":
    main()
