import torch
import torch.nn as nn


class Interact(nn.Module):
    def __init__(self):
        super().__init__()
        self.bot = nn.Linear(8, 4)
        self.top = nn.Linear(10, 1)

    def forward(self, x):
        y = self.bot(x)
        t = torch.cat([y, y, y, y], dim=1).view((x.shape[0], -1, 4))
        z = torch.bmm(t, torch.transpose(t, 1, 2))
        _, ni, nj = z.shape
        li = torch.tensor([i for i in range(ni) for j in range(i)])
        lj = torch.tensor([j for i in range(nj) for j in range(i)])
        flat = z[:, li, lj]
        return self.top(torch.cat([y, flat], dim=1))


device = "cuda"
model = Interact().to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
rows = torch.arange(8)
for step in range(1000):
    x = torch.randn(16, 8, device=device)
    first = x[rows]
    loss = model(x).pow(2).mean() + first.sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
