import torch
import torch.nn as nn

device = "cuda"
model = nn.Linear(16, 3).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
mloss = torch.zeros(3, device=device)
host = torch.zeros(3)
for i in range(100):
    x = torch.randn(8, 16, device=device)
    out = model(x)
    loss = out.sum()
    loss.backward()
    opt.step()
    opt.zero_grad()
    mloss = (mloss * i + out.detach().mean(0)) / (i + 1)
    s = ("%10s" + "%10.4g" * 3) % ("loss", *mloss)
    t = "%.3f" % loss
    u = "%d/%d" % (i, 100)
    w = ("%g " * 3) % tuple(host.tolist())
    print(s, t, u, w)
