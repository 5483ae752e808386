import numpy as np
import torch
import torch.nn as nn

device = 'cuda'
model = nn.Linear(3, 1).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
coords = torch.randn(4096, 3).to(device)
targets = torch.randn(4096, 1).to(device)
for step in range(1000):
    inds = np.random.choice(4096, size=[256], replace=False)
    x = coords[inds]
    y = targets[torch.randint(0, 4096, (256,), device=device)]
    first = coords[[0, 1, 2], :]
    row = coords[np.random.choice(4096)]
    loss = (model(x) - y).pow(2).mean() + first.sum() + row.sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
