# A JSON config read with Path.read_text() and json.loads, layered over a
# model type's defaults with jsonmerge.merge (as k-diffusion's load_config
# does): the merged values decide the model built and the branches taken.
import argparse
import json
from pathlib import Path

from jsonmerge import merge
import torch
import torch.nn as nn


def load_config(path):
    defaults_mlp = {"model": {"depth": 2, "dropout": 0.0}, "logging": {"debug": True, "every": 10}}
    config = json.loads(Path(path).read_text())
    if config["model"]["type"] == "mlp":
        config = merge(defaults_mlp, config)
    return merge({"optimizer": {"lr": 0.1}}, config)


class MLP(nn.Module):
    def __init__(self, width, depth):
        super().__init__()
        self.layers = nn.Sequential(*[nn.Linear(width, width) for _ in range(depth)])

    def forward(self, x):
        return self.layers(x)


class Other(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.fc = nn.Linear(width, 1)

    def forward(self, x):
        return self.fc(x).tolist()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--config", required=True)
    args = p.parse_args()
    config = load_config(args.config)
    mc = config["model"]
    if mc["type"] == "mlp":
        model = MLP(mc["width"], mc["depth"]).cuda()
    else:
        model = Other(mc["width"]).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=config["optimizer"]["lr"])
    for step in range(100):
        x = torch.randn(4, mc["width"], device="cuda")
        loss = model(x).sum()
        loss.backward()
        opt.step()
        opt.zero_grad()
        if config["logging"]["debug"]:
            print(loss.item())
        if step % config["logging"]["every"] == 0:
            print(f"step {step}: {loss.item():.3f}")


if __name__ == "__main__":
    main()
