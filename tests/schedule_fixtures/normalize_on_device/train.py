import torch
import torch.nn as nn
import torchvision.transforms as T
import torchvision.transforms.functional as TF
from torch.utils.data import DataLoader, TensorDataset

MEAN = (0.49, 0.48, 0.45)
STD = (0.25, 0.24, 0.26)


def main():
    device = torch.device("cuda")
    model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 10)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    data = TensorDataset(torch.rand(64, 3, 8, 8), torch.randint(0, 10, (64,)))
    loader = DataLoader(data, batch_size=16)
    norm = T.Normalize(mean=MEAN, std=STD)
    dev_norm = T.Normalize(torch.tensor(MEAN, device=device), torch.tensor(STD, device=device))
    host_norm = T.Normalize(MEAN, STD)
    for epoch in range(2):
        for x, y in loader:
            x = norm(x.to(device))
            loss = nn.functional.cross_entropy(model(x), y.to(device))
            loss.backward()
            opt.step()
            opt.zero_grad()
        with torch.no_grad():
            probe = torch.rand(4, 3, 8, 8, device=device)
            a = model(TF.normalize(probe, list(MEAN), list(STD)))
            b = model(dev_norm(probe))
            c = model(host_norm(torch.rand(4, 3, 8, 8)).to(device))
            print(a.sum().item(), b.sum().item(), c.sum().item())


if __name__ == "__main__":
    main()
