# An inference wrapper run once at startup on a file name (as YOLOv5's
# check_amp runs AutoShape on a copy of the model), then the model trained
# in a loop.  The wrapper's forward is job code at its call: its copy and
# its read happen once, at startup, not every step.
from copy import deepcopy

import numpy as np
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 2)

    def forward(self, x):
        return self.fc(x)


class Wrapper(nn.Module):
    """loads host data, copies it to the model's device, runs the model"""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, ims):
        p = next(self.model.parameters())
        x = np.ones((1, 8), dtype=np.float32)
        x = torch.from_numpy(x).to(p.device)
        y = self.model(x)
        return y.cpu()


def check(model):
    m = Wrapper(deepcopy(model))
    return m("sample.jpg")


def main():
    model = Net().cuda()
    check(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        x = torch.randn(4, 8, device="cuda")
        loss = model(x).sum()
        loss.backward()
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
