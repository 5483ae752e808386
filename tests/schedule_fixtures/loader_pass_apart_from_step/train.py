import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def main():
    device = torch.device("cuda")
    stats = DataLoader(TensorDataset(torch.randn(64, 32)), batch_size=8)
    scale = 0.0
    for (x,) in stats:
        x = x.to(device)
        scale = max(scale, x.abs().max().item())
    model = nn.Linear(32, 1).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(TensorDataset(torch.randn(256, 32), torch.randn(256, 1)), batch_size=8)
    for x, y in loader:
        x, y = x.to(device) / scale, y.to(device)
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        opt.zero_grad()
    drift = 0.0
    for (x,) in stats:
        x = x.to(device)
        drift += model(x / scale).mean().item()
    return scale, drift


if __name__ == "__main__":
    main()
