"""The job logs its optimizer's hyperparameters from optimizer.defaults,
the dict of numbers torch.optim keeps as given: formatting them reads
nothing from the GPU.  The loss is read back every 10 steps.

    python train.py
"""
import copy

import torch
import torch.nn as nn


def main():
    device = torch.device("cuda")
    model = nn.Linear(32, 8).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True)
    defaults = copy.deepcopy(optimizer.defaults)
    defaults["weight_decay"] = 1e-4
    print(", ".join([f"{k}: {v}" for k, v in defaults.items()]))
    for step in range(200):
        x = torch.randn(16, 32, device=device)
        loss = model(x).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 10 == 0:
            print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
