# A helper module built on the meta device inside `with torch.device(...)`:
# after the block the factories' default is the host again, so the host
# frequencies made in the forward are copied to the device every step.
import math

import torch
import torch.nn as nn


def embed(t, dim=32):
    half = dim // 2
    freqs = torch.exp(-math.log(10000) * torch.arange(0, half, dtype=torch.float32) / half).to(t.device)
    args = t[:, None] * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(32, 32)

    def forward(self, x, t):
        return self.fc(embed(t)) + x


def main():
    with torch.device("meta"):
        shape_probe = nn.Linear(32, 32)
    print(shape_probe.weight.shape)
    model = Net().cuda()
    with torch.no_grad():
        x = torch.randn(2, 32, device="cuda")
        for i in range(10):
            t = torch.full((2,), 0.5, device=x.device)
            x = x + model(x, t)
    print(x.cpu())


if __name__ == "__main__":
    main()
