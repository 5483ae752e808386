import re

import torch
import torch.nn as nn
import torch.nn.functional as F

RUN = 'amp_bf16_every10'
SAMPLE = 'nosample'
ops = RUN.split('_')
dtype = ops[1]
key, value = re.split(r'(\d.*)', ops[2])[:2]
log_every = int(value) if key == 'every' else 1
device = 'cuda'


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(32, 64)
        self.fc2 = nn.Linear(64, 10)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


model = Net().to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
scaler = torch.cuda.amp.GradScaler(enabled=(dtype == 'fp16'))


def sample(n):
    x = torch.randn(n, 32, device=device)
    with torch.no_grad():
        out = model(x)
    return out.argmax(-1).tolist()


for step in range(1000):
    x = torch.randn(64, 32).to(device)
    y = torch.randint(0, 10, (64,)).to(device)
    with torch.autocast(device_type='cuda', dtype=torch.bfloat16):
        loss = F.cross_entropy(model(x), y)
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
    optimizer.zero_grad(set_to_none=True)
    if step % log_every == 0:
        print(f"step {step} loss {loss.item():.4f}")
    if re.fullmatch(r'sample\d*', SAMPLE) is not None:
        print(sample(4))
