"""A classifier whose model is checked once on one input before training
(a forward with gradients enabled, outside every loop, in a nested helper
as a detector's AMP check does); then the training loop.

    python train.py
"""
import torch
import torch.nn as nn


def check_model(model, device):
    def runs_finite(m, x):
        out = m(x)
        return bool(out.isfinite().all().item())

    x = torch.zeros(1, 20, device=device)
    return runs_finite(model, x)


def main():
    device = torch.device("cuda")
    model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 4)).to(device)
    ok = check_model(model, device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(1000):
        x = torch.randn(64, 20).to(device)
        y = torch.randint(0, 4, (64,), device=device)
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(ok)


if __name__ == "__main__":
    main()
