"""A loader whose collate_fn (a function of the job's own) packs the images
of a batch into an object of a class of its own, with a to(device) method
that moves its tensors: the loop's batch.to(device) runs that method, so
the copies to the GPU are the two inside it.

    python train.py
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class Padded(object):
    def __init__(self, tensors, mask):
        self.tensors = tensors
        self.mask = mask

    def to(self, device):
        cast = self.tensors.to(device)
        mask = self.mask
        if mask is not None:
            cast_mask = mask.to(device)
        else:
            cast_mask = None
        return Padded(cast, cast_mask)

    def decompose(self):
        return self.tensors, self.mask


def pad_images(images):
    b = len(images)
    c, h, w = images[0].shape
    device = images[0].device
    batch = torch.zeros((b, c, h, w), dtype=images[0].dtype, device=device)
    mask = torch.ones((b, h, w), dtype=torch.bool, device=device)
    for img, pad, m in zip(images, batch, mask):
        pad[:, : img.shape[1], : img.shape[2]].copy_(img)
        m[: img.shape[1], : img.shape[2]] = False
    return Padded(batch, mask)


def collate_fn(batch):
    batch = list(zip(*batch))
    batch[0] = pad_images(batch[0])
    return tuple(batch)


class Images(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return torch.randn(3, 32, 32), {"label": torch.tensor(i % 10)}


def main():
    device = torch.device("cuda")
    model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 10)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(Images(256), batch_size=8, shuffle=True, collate_fn=collate_fn)
    for epoch in range(2):
        for samples, targets in loader:
            samples = samples.to(device)
            images, mask = samples.decompose()
            out = model(images)
            loss = out.logsumexp(dim=1).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()


if __name__ == "__main__":
    main()
