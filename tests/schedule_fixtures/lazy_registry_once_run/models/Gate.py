import torch


class Model(torch.nn.Module):
    def __init__(self, args):
        super().__init__()
        self.proj = torch.nn.Linear(4, 2)

    def forward(self, x):
        y = self.proj(x)
        if y.max() > 10:
            y = y / 10
        return y
