# threading.Thread(target=f, args=(...)).start() runs f(*args) -- here a
# plotter that copies the batch to the host (images.cpu()), every
# step.  A thread built and never started runs nothing.
from threading import Thread

import torch
import torch.nn as nn


def plot_batch(images, fname):
    images = images.cpu().float().numpy()
    return fname, images.shape


def dump_stats(values):
    return values.cpu().numpy()


def main():
    model = nn.Linear(16, 4).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        x = torch.randn(8, 16, device="cuda")
        loss = model(x).pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()
        Thread(target=plot_batch, args=(x, f"batch{step}.jpg"), daemon=True).start()
    idle = Thread(target=dump_stats, args=(x,))


if __name__ == "__main__":
    main()
