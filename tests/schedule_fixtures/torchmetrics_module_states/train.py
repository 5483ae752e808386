"""torchmetrics metrics are torch modules: their states are buffers
made on the host.  The running loss is moved to the GPU (a copy, once)
and its compute() returns a GPU tensor, so .item() every 10 steps syncs.
The throughput meter is never moved: it computes on the host, and its
.item() reads host memory."""
import torch
import torch.nn as nn
from torchmetrics.aggregation import MeanMetric, RunningMean

device = torch.device("cuda")
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
running_loss = RunningMean(window=4, sync_on_compute=False).to(device)
throughput = MeanMetric()
for step in range(100):
    loss = model(torch.randn(8, 4, device=device)).pow(2).mean()
    loss.backward()
    opt.step()
    opt.zero_grad()
    running_loss.update(loss.detach())
    throughput.update(8.0)
    if step % 10 == 0:
        print(running_loss.compute().item(), throughput.compute().item())
