import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda")
model = nn.Linear(16, 16).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = TensorDataset(torch.randn(64, 16))
loader = DataLoader(data, batch_size=8)

queue = None
for epoch in range(10):
    # a queue of features started at epoch 3: a constant fill, no batch
    if epoch >= 3 and queue is None:
        queue = torch.zeros(2, 32, 16).cuda()
    for (x,) in loader:
        # a padded batch: zeros written with the loader's data, then moved
        padded = torch.zeros(8, 16)
        padded[: x.shape[0]].copy_(x)
        padded = padded.to(device)
        loss = model(padded).square().mean()
        loss.backward()
        opt.step()
        opt.zero_grad()
