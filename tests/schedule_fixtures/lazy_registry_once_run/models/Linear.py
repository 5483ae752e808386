import torch


class Model(torch.nn.Module):
    def __init__(self, args):
        super().__init__()
        self.proj = torch.nn.Linear(4, 2)
        self.register_buffer('scale', torch.ones(2))

    def forward(self, x):
        return self.proj(x) * self.scale
