import torch
import torch.nn as nn
import torch.nn.functional as F

device = 'cuda'
dtype = 'float16'
steps = 1000
log_every = 10
sample_every = 200
exec(open('configurator.py').read())


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(32, 64)
        self.fc2 = nn.Linear(64, 10)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


model = Net().to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
scaler = torch.cuda.amp.GradScaler(enabled=(dtype == 'float16'))
ctx = torch.autocast(device_type='cuda', dtype=torch.bfloat16 if dtype == 'bfloat16' else torch.float16)


def sample(n):
    x = torch.randn(n, 32, device=device)
    with torch.no_grad():
        out = model(x)
    return out.argmax(-1).tolist()


for step in range(steps):
    x = torch.randn(64, 32).to(device)
    y = torch.randint(0, 10, (64,)).to(device)
    with ctx:
        loss = F.cross_entropy(model(x), y)
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
    optimizer.zero_grad(set_to_none=True)
    if step % log_every == 0:
        print(f"step {step} loss {loss.item():.4f}")
    if sample_every > 0 and step % sample_every == 0:
        print(sample(4))
