import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--no-cuda", action="store_true")
args = parser.parse_args()
use_cuda = not args.no_cuda and torch.cuda.is_available()
device = torch.device("cuda" if use_cuda else "cpu")

kwargs = {"num_workers": 1, "pin_memory": True} if use_cuda else {}
data = TensorDataset(torch.rand(256, 16), torch.randint(0, 4, (256,)))
loader = DataLoader(data, batch_size=32, shuffle=True, **kwargs)

model = nn.Linear(16, 4).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)

for epoch in range(3):
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(epoch, loss.item())
