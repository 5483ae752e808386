"""Training with a start-up check: before the loop, an inference wrapper
(an nn.Module whose forward loads an image from a path, copies it to the
model's device, runs the model, filters its boxes and wraps them) is run
twice on a sample image and the two results compared with
torch.allclose.  The wrapper is given a path or a numpy array, never a
tensor, so its forward is the job's own code: the copy in, the boolean
mask and the gains tensor happen at start-up, and allclose reads the
device only when both runs keep the same number of boxes.  After each
epoch, an evaluation over a few batches under no_grad reads a count."""
import argparse
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn

ROOT = Path(__file__).resolve().parents[0]


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 6, 3, padding=1)

    def forward(self, x):
        return self.conv(x).flatten(2).transpose(1, 2)


class Result:
    def __init__(self, pred, size):
        gn = torch.tensor([size, size, size, size], device=pred.device)
        self.xyxyn = pred[:, :4] / gn


class Predictor(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model.eval()

    @torch.no_grad()
    def forward(self, im, size=64):
        p = next(self.model.parameters())
        if isinstance(im, torch.Tensor):
            return self.model(im.to(p.device))
        if isinstance(im, (str, Path)):
            im = np.load(im)
        x = torch.from_numpy(np.ascontiguousarray(im.transpose(2, 0, 1)[None])).to(p.device).float() / 255
        y = self.model(x)[0]
        y = y[y[:, 4] > 0.25]
        return Result(y, size)


def check(model):
    f = ROOT / "data" / "sample.npy"
    im = f if f.exists() else np.zeros((64, 64, 3), dtype=np.uint8)
    m = Predictor(model)
    a = m(im).xyxyn
    b = m(im).xyxyn
    return a.shape == b.shape and torch.allclose(a, b, atol=0.1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--steps", type=int, default=50)
    args = p.parse_args()
    device = torch.device("cuda")
    model = Net().to(device)
    ok = check(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for epoch in range(args.epochs):
        model.train()
        for step in range(args.steps):
            imgs = torch.randn(8, 3, 32, 32, device=device)
            loss = model(imgs).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            for batch in range(4):
                out = model(torch.randn(8, 3, 32, 32, device=device))
                n = (out[..., 4] > 0.5).sum().item()


if __name__ == "__main__":
    main()
