import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class Tagged(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        x = torch.randn(8)
        tags = torch.LongTensor([i % 7, i % 5, i % 3])
        return x, tags


device = "cuda"
model = nn.Linear(8, 1).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(Tagged(1024), batch_size=32, shuffle=True)
table = torch.arange(1024)
for step, (x, tags) in enumerate(loader):
    x = x.to(device)
    scores = model(x).squeeze(1)
    _, order = scores.sort(descending=True)
    ranked = tags[order]
    top = table[order[:4]]
    kept = tags[scores > 0]
    hosted = tags[torch.arange(4)]
    picked = x[order]
    names = ranked.tolist()
    loss = scores.pow(2).mean() + picked.sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
