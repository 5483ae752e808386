import sys

import numpy as np
import torch
import torch.nn as nn


class Backend(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.net = nn.Linear(16, 4)
        self.repeats = n

    def forward(self, x):
        return self.net(x)

    def warmup(self, shape):
        im = torch.empty(*shape, device="cuda")
        for _ in range(self.repeats):
            self.forward(im)


model = Backend(len(sys.argv)).cuda()
model.eval()
model.warmup((1, 16))
images = [np.zeros((1, 16), dtype=np.float32) for _ in range(int(sys.argv[1]))]
with torch.no_grad():
    for img in images:
        x = torch.from_numpy(img).cuda()
        out = model(x)
        print(out.argmax(-1).item())
