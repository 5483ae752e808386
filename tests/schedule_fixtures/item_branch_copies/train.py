"""A small convnet whose conv weights are read from a flat float32 file and
copied layer by layer into the parameters already on the device, then
trained over a loader.

    python train.py --weights init.bin
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def load_flat_weights(model, path):
    flat = np.fromfile(path, dtype=np.float32)
    ptr = 0
    for module in model:
        if isinstance(module, nn.Conv2d):
            n = module.weight.numel()
            w = torch.from_numpy(flat[ptr: ptr + n]).view_as(module.weight)
            module.weight.data.copy_(w)
            ptr += n


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--weights", default="")
    args = p.parse_args()

    device = torch.device("cuda")
    model = nn.Sequential(nn.Conv2d(3, 16, 3), nn.ReLU(), nn.Conv2d(16, 16, 3), nn.ReLU(),
                          nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 10)).to(device)
    if args.weights:
        load_flat_weights(model, args.weights)
    data = TensorDataset(torch.randn(512, 3, 32, 32), torch.randint(0, 10, (512,)))
    loader = DataLoader(data, batch_size=32, shuffle=True)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
