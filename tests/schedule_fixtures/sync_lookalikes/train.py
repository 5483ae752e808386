"""Look-alikes of syncs and copies next to the real ones: a checkpoint's
fields read as Python values, a gather with an index tensor, a loss module
moved to the device, a process-group check that is False."""
import os
import time

import numpy as np
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 4)

    def forward(self, x):
        return self.fc(x)


def ddp_on():
    return dist.is_available() and dist.is_initialized()


def resume(model, path, gpu):
    loc = f"cuda:{gpu}"
    ckpt = torch.load(path, map_location=loc)
    model.load_state_dict(ckpt["model"])
    start = ckpt["epoch"]
    print(f"resuming at epoch {start}")
    return start


def main():
    device = torch.device("cuda")
    model = Net().to(device)
    criterion = nn.CrossEntropyLoss().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    start = 0
    if os.path.exists("ckpt.pt"):
        start = resume(model, "ckpt.pt", 0)
    table = torch.arange(10, device=device)
    for step in range(start, 100):
        x = torch.randn(8, 16).to(device)
        y = torch.randint(0, 4, (8,)).to(device)
        idx = torch.from_numpy(np.random.randint(0, 10, size=8)).to(device)
        picked = table[idx]
        loss = criterion(model(x), y) + picked.float().mean() * 0
        opt.zero_grad()
        loss.backward()
        if ddp_on():
            dist.all_reduce(loss)
        opt.step()
        print(loss.item())
        if step % 50 == 0:
            snap = {}
            snap[time.strftime("%H%M%S")] = loss.detach().cpu()
            torch.save(snap, "snap.pt")
    from pycocotools.cocoeval import COCOeval
    evaluator = COCOeval(None, iouType="bbox")
    torch.save(evaluator.eval, "eval.pt")


if __name__ == "__main__":
    main()
