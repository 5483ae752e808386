# An optimizer made over a host-built model's parameters, prepared with
# that model by accelerate over several processes: prepare moves the
# model to the GPU in place, so the optimizer's parameters are on the
# device afterwards, and a checkpoint's optimizer state loaded on the
# host is cast to them (torch's Optimizer.load_state_dict): a copy.
import os

import torch
import torch.nn as nn
from accelerate import Accelerator


def main():
    accelerator = Accelerator()
    model = nn.Linear(32, 32)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    model, opt = accelerator.prepare(model, opt)
    if os.path.exists("last.pt"):
        ckpt = torch.load("last.pt", map_location="cpu")
        opt.load_state_dict(ckpt["opt"])
    for step in range(1000):
        x = torch.randn(8, 32, device=accelerator.device)
        loss = model(x).pow(2).mean()
        accelerator.backward(loss)
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
