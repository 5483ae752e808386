import json

import torch
import torch.nn as nn

cfg = json.load(open("config.json"))
device = torch.device("cuda")
model = nn.Linear(8, 8).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)

step = 0
while cfg["max_tokens"] is None or step < cfg["max_tokens"]:
    x = torch.randn(4, 8).to(device)
    loss = model(x).square().mean()
    loss.backward()
    opt.step()
    opt.zero_grad()
    step += 1
    if step % cfg["log_every"] == 0:
        print(step, loss.item())
    if step % cfg["save_every"] == 0:
        torch.save(model.state_dict(), "ckpt.pt")
    if step >= cfg["total_steps"]:
        break
