import json

import torch
import torch.nn as nn


def collect(model, extra):
    metrics = {}
    for key, value in extra.items():
        metrics[key] = value
    metrics["total_grad_norm"] = torch.stack([p.grad.norm() for p in model.parameters()]).norm()
    return metrics


def main():
    extra = json.load(open("extra_metrics.json"))
    model = nn.Linear(16, 16).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(50):
        loss = model(torch.randn(4, 16, device="cuda")).sum()
        loss.backward()
        metrics = collect(model, extra)
        opt.step()
        opt.zero_grad()
        logged = {}
        for key, value in metrics.items():
            logged[key] = float(value)
        print(logged)


if __name__ == "__main__":
    main()
