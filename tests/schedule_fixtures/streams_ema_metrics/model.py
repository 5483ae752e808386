import torch.nn as nn


class MLP(nn.Module):
    def __init__(self, dim, hidden, classes):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, hidden), nn.GELU(), nn.Linear(hidden, classes))

    def forward(self, x):
        return self.net(x)
