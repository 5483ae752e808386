import time
import torch
import torch.nn as nn

model = nn.Linear(64, 64).cuda().eval()
x = torch.randn(8, 64).cuda()


def run(model, x):
    with torch.no_grad():
        y = model(x)
    return y.argmax(-1).tolist()


for _ in range(3):
    run(model, x)
torch.cuda.synchronize()
t0 = time.time()
for _ in range(100):
    out = run(model, x)
torch.cuda.synchronize()
print((time.time() - t0) / 100)
