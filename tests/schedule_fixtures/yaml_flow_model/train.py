# The model is built from model.yaml: a flow list of [module, args] rows
# spanning lines, each module named by a string the builder eval()s.
# Reading the yaml's nested, multi-line flow collections is what makes
# the layers -- and the .item() inside Probe's forward -- visible.
import torch
import torch.nn as nn
import yaml


class Probe(nn.Module):
    def __init__(self, c1, c2):
        super().__init__()
        self.fc = nn.Linear(c1, c2)
        self.peak = 0.0

    def forward(self, x):
        h = self.fc(x)
        self.peak = h.abs().max().item()
        return h


class Head(nn.Module):
    def __init__(self, c1, c2):
        super().__init__()
        self.fc = nn.Linear(c1, c2)

    def forward(self, x):
        return self.fc(x)


def build(d):
    layers = []
    for m, args in d["layers"]:
        m = eval(m) if isinstance(m, str) else m
        layers.append(m(*args))
    return nn.Sequential(*layers)


class Model(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        with open(cfg) as f:
            self.yaml = yaml.load(f, Loader=yaml.SafeLoader)
        self.model = build(self.yaml)

    def forward(self, x):
        return self.model(x)


def main():
    model = Model("model.yaml").cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        x = torch.randn(8, 16, device="cuda")
        loss = model(x).pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
