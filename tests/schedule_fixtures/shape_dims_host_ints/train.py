"""Images of varying sizes (read from files, their shapes known only at
run time) go through a model whose forward makes scale factors on the
image's device from the image's own sizes: x.shape[-2:] is a torch.Size,
its items Python ints, so torch.tensor(h, device=img.device) copies a
host number to the device.  A branch on the target's keys (not known)
keeps its copy with that condition."""
import sys

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class Images(Dataset):
    def __init__(self, files):
        self.files = files

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        return torch.load(self.files[i])


def rescale(boxes, old, new):
    ratios = [
        torch.tensor(s, dtype=torch.float32, device=boxes.device)
        / torch.tensor(s_old, dtype=torch.float32, device=boxes.device)
        for s, s_old in zip(new, old)
    ]
    rh, rw = ratios
    return boxes * rw


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3)

    def forward(self, image, target):
        h, w = image.shape[-2:]
        y = self.conv(image[None])
        boxes = rescale(target["boxes"], (h, w), y.shape[-2:])
        if "points" in target:
            points = target["points"] * torch.tensor(w, dtype=torch.float32, device=image.device)
            boxes = boxes + points.mean()
        return y.mean() + boxes.mean()


def main():
    device = torch.device("cuda")
    model = Net().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    loader = DataLoader(Images(sys.argv[1:]), batch_size=None)
    for sample in loader:
        image = sample["image"].to(device)
        target = {k: v.to(device) for k, v in sample["target"].items()}
        loss = model(image, target)
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
