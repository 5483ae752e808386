import torch
from torch import nn


class Net(nn.Module):
    def __init__(self, dim=64, depth=4):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Linear(dim, dim) for _ in range(depth)])
        self.head = nn.Linear(dim, 10)

    def forward(self, x):
        for b in self.blocks:
            x = torch.relu(b(x))
        return self.head(x)


MODELS = {}
for _name, _depth in (("net_s", 2), ("net_m", 4), ("net_l", 8)):
    MODELS[_name] = (Net, _depth)
