"""A detector-like model called on a list of images (its length not
known): its forward keeps one result dict per image in a list built by a
loop, then reads each dict again in a second loop.  No image has a mask
head (--masks not given), so no dict has a "masks" key: the mask branch
never runs.  Each image's anchor marks come from one of two paths decided
on the data (an empty image or not); torch.zeros_like of them lives where
they do, on the device."""
import argparse

import torch
import torch.nn as nn


def match(y):
    if y.numel() == 0:
        return None
    return y[:, 0].clamp(min=0)


class Det(nn.Module):
    def __init__(self, masks):
        super().__init__()
        self.fc = nn.Linear(8, 5)
        self.masks = masks

    def forward(self, images):
        results = []
        for img in images:
            y = self.fc(img)
            r = {"boxes": y[:, :4], "scores": y[:, 4], "marks": match(y)}
            if self.masks:
                r["masks"] = y.sigmoid()
            results.append(r)
        losses = []
        for r in results:
            if "masks" in r:
                area = int(r["boxes"][:, 2:].sum())
                r["masks"] = r["masks"][:area]
            pos = torch.zeros_like(r["marks"])
            pos[r["marks"] > 0] = 1
            keep = torch.where(pos > 0)[0]
            losses.append(r["scores"][keep].sum() + r["boxes"].abs().mean())
        return sum(losses)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--masks", action="store_true")
    p.add_argument("--steps", type=int, default=100)
    args = p.parse_args()

    device = torch.device("cuda")
    model = Det(args.masks).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for step in range(args.steps):
        images = [torch.randn(16, 8, device=device) for _ in range(torch.randint(1, 4, (1,)).item())]
        loss = model(images)
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
