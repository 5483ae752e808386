import torch
import torch.nn as nn
from ultralytics.utils.patches import torch_load

model = nn.Linear(16, 4).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(100):
    x = torch.randn(8, 16, device="cuda")
    loss = model(x).sum()
    loss.backward()
    opt.step()
    opt.zero_grad()
torch.save({"model": model.state_dict()}, "best.pt")

ckpt = torch_load("best.pt", map_location=torch.device("cpu"))
ckpt["optimizer"] = None
torch.save(ckpt, "stripped.pt")
other = torch_load("best.pt")
torch.save(other, "copy.pt")
