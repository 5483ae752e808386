import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def main():
    device = torch.device("cuda")
    model = nn.Linear(8, 4).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    data = TensorDataset(torch.randn(256, 8), torch.randint(0, 4, (256,)))
    loader = DataLoader(data, batch_size=32)
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        logp = model(x).log_softmax(-1)
        picked = logp[range(x.shape[0]), y]
        loss = -picked.mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            marks = torch.zeros(x.shape[0], 4, device=device)
            marks[range(x.shape[0]), y] = 1.0
            first = logp[range(2)]
            for k in range(x.shape[0]):
                marks[k, 0] = 0.0


if __name__ == "__main__":
    main()
