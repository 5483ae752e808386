"""A regression net trained for a fixed number of steps; every step it
prints the loss, sends it to wandb, logs the gradient norm and keeps a
running sum.

    python train.py
"""
import logging

import numpy as np
import torch
import torch.nn as nn
import wandb

logger = logging.getLogger(__name__)


def main():
    device = torch.device("cuda")
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1)).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    wandb.init(project="fixture")
    total = 0.0
    for step in range(1000):
        x = torch.randn(128, 32, device=device)
        y = torch.randn(128, 1, device=device)
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        total += loss.item()
        penalty = np.log(1.0 + gn.item())
        print(f"step {step}: loss {loss.item():.4f} penalty {penalty:.3f}")
        wandb.log({"loss": loss.detach().cpu().numpy(), "gn": gn.item()})
        logger.info("running %f", total / (step + 1))
    return total, penalty


if __name__ == "__main__":
    main()
