import torch
import torch.nn as nn

device = 'cuda'
to_device = lambda t: t.to(device)
read = lambda t: t.item()


def train():
    model = nn.Linear(4, 2).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    spread = lambda x: x.float().std().item()
    for step in range(100):
        x = to_device(torch.randn(8, 4))
        loss = model(x).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 10 == 0:
            print(read(loss), spread(x))


train()
