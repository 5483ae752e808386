import os

import torch
import torch.nn as nn


def select(pred, conf_thres=0.25, multi_label=False):
    nc = pred.shape[1] - 5
    multi_label &= nc > 1
    if multi_label:
        return (pred[:, 5:] > conf_thres).nonzero()
    conf = pred[:, 5:].amax(1)
    return pred[conf > conf_thres]


device = torch.device("cuda")
model = nn.Linear(16, int(os.environ["NUM_OUT"])).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)

# a start-up check of the detector: best class only
with torch.no_grad():
    select(model(torch.randn(4, 16, device=device)))

for epoch in range(3):
    model.train()
    for _ in range(100):
        x = torch.randn(32, 16, device=device)
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        for _ in range(10):
            select(model(torch.randn(8, 16, device=device)), conf_thres=0.001, multi_label=True)
