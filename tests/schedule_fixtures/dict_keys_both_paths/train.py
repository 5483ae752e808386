"""The loss terms are computed on either path of a switch the launch
decides (autocast or not): both paths bind a dict of the same three keys,
so the pass that logs every term reads the device three times a step, and
the backward of its "loss" entry runs every step."""
import os

import torch
import torch.nn as nn


def compute_losses(model, x):
    out = model(x)
    terms = {}
    terms["mse"] = (out - x).pow(2).mean()
    terms["reg"] = out.abs().mean()
    terms["loss"] = terms["mse"] + 0.1 * terms["reg"]
    return terms


def main():
    use_amp = int(os.environ["USE_AMP"]) == 1
    model = nn.Linear(16, 16).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(1000):
        x = torch.randn(32, 16, device="cuda")
        if use_amp:
            with torch.autocast("cuda", dtype=torch.bfloat16):
                losses = compute_losses(model, x)
        else:
            losses = compute_losses(model, x)
        opt.zero_grad()
        losses["loss"].backward()
        opt.step()
        for key, value in losses.items():
            print(step, key, value.item())


if __name__ == "__main__":
    main()
