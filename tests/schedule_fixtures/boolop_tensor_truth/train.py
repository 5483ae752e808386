import torch
import torch.nn as nn

DEBUG = False
device = 'cuda'


def check(out):
    for k in out:
        if (torch.isnan(out[k]).any() or torch.isinf(out[k]).any()) and DEBUG:
            print('bad', k)
    return out


model = nn.Linear(4, 2).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(100):
    x = torch.randn(8, 4, device=device)
    y = model(x)
    out = check({'y': y, 'z': y * 2})
    loss = out['y'].pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    bad = DEBUG and bool(loss.isnan())
    flag = step > 50 and loss
