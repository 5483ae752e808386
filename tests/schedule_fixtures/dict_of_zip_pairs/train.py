"""A regression net whose step statistics are named by zipping a list of
names with a list of device values into a dict, then printed one by one
every 100 steps.

    python train.py
"""
import torch
import torch.nn as nn

NAMES = ["loss", "mae"]


def main():
    device = torch.device("cuda")
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(1000):
        x = torch.randn(64, 32, device=device)
        y = torch.randn(64, 1, device=device)
        out = model(x)
        loss = nn.functional.mse_loss(out, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        stats = dict(zip(NAMES, [loss.detach(), (out - y).abs().mean()]))
        if not stats:
            print("nothing to log", loss.cpu())
        if step % 100 == 0:
            for k, v in stats.items():
                print(f"{k}: {v.item():.4f}")


if __name__ == "__main__":
    main()
