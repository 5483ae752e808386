"""Gradient clipping by hand, parameter by parameter: each gradient's
norm read on the host and a device tensor compared in an `if`, once per
parameter (how many, the run knows), every step."""
import torch
import torch.nn as nn


def clip_gradients(model, clip):
    norms = []
    for name, p in model.named_parameters():
        if p.grad is not None:
            param_norm = p.grad.data.norm(2)
            norms.append(param_norm.item())
            clip_coef = clip / (param_norm + 1e-6)
            if clip_coef < 1:
                p.grad.data.mul_(clip_coef)
    return norms


def freeze(model):
    for p in model.parameters():
        p.requires_grad = False


def main():
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10)).cuda()
    ema = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10)).cuda()
    freeze(ema)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(1000):
        x = torch.randn(16, 32, device="cuda")
        y = torch.randint(0, 10, (16,), device="cuda")
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        norms = clip_gradients(model, 3.0)
        opt.step()
        if step % 100 == 0:
            print(step, max(norms))


if __name__ == "__main__":
    main()
