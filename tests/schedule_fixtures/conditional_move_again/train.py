import argparse
import json

import torch
import torch.nn as nn


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--config", default="config.json")
    args = p.parse_args()
    with open(args.config) as fh:
        cfg = json.load(fh)
    device = torch.device("cuda")
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1))
    if cfg["preload"]:
        model.to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    model.to(device)
    for step in range(100):
        x = torch.randn(8, 32, device=device)
        loss = model(x).square().mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        print(loss.item())


if __name__ == "__main__":
    main()
