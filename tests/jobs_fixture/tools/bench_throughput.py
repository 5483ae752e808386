import sys
import time

import torch

sys.path.insert(0, "src")
from acme.model import Net

model = Net().cuda().eval()
x = torch.randn(512, 64, device="cuda")
with torch.no_grad():
    for _ in range(50):
        t0 = time.time()
        y = model(x)
        torch.cuda.synchronize()
        print(f"{512 / (time.time() - t0):.0f} samples/s")
