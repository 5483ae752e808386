# A dummy backward at import warms autograd and the CUDA context up before
# anything else runs; the training loop's backward is the step's.
import torch
import torch.nn as nn
torch.empty(1, device="cuda", requires_grad=True).backward()

model = nn.Linear(16, 1).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(100):
    x = torch.randn(8, 16, device="cuda")
    loss = model(x).pow(2).mean()
    loss.backward()
    opt.step()
    opt.zero_grad(set_to_none=True)
