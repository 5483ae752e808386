import numpy as np
import torch
import torch.nn as nn


def real_stats(model, n):
    feats = []
    for _ in range(n):
        feats.append(model(torch.randn(8, 16, device="cuda")))
    feats = torch.cat(feats).cpu().numpy()
    return feats.mean(0)


def main():
    model = nn.Linear(16, 4).cuda()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    try:
        stats = np.load("stats.npy")
    except OSError:
        stats = real_stats(model, 10)
    try:
        scale = float(open("scale.txt").read())
    except Exception:
        scale = model.weight.sum().item()
    for step in range(1000):
        loss = model(torch.randn(8, 16, device="cuda")).pow(2).mean() * scale
        loss.backward()
        opt.step()
        opt.zero_grad()
    print(stats)


if __name__ == "__main__":
    main()
