import torch
import torch.nn as nn
from ema_pytorch import EMA
from pytorch_fid.inception import InceptionV3


def main():
    device = "cuda"
    model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 16))
    ema = EMA(model, beta=0.995, update_every=10)
    ema.to(device)  # the EMA copy (and the online model, its submodule) moved
    cpu_ema = EMA(nn.Linear(16, 16), beta=0.9)  # kept on the host
    inception = InceptionV3([3]).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(1000):
        x = torch.randn(8, 16, device=device)
        loss = model(x).pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()
        ema.update()
        cpu_ema.update()


if __name__ == "__main__":
    main()
