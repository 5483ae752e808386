"""Two augmented views of each image, as contrastive jobs make them: the
dataset returns a list of two crops, so the default collate gives each
batch as a list of two tensors, and the loop moves each view to the GPU
in place of the host one.

    python train.py
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class TwoViews(Dataset):
    def __init__(self, n):
        self.x = torch.randn(n, 3, 32, 32)

    def __len__(self):
        return self.x.shape[0]

    def __getitem__(self, i):
        img = self.x[i]
        return [img + 0.1 * torch.randn_like(img), img.flip(-1)], 0


def main():
    model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.AdaptiveAvgPool2d(1), nn.Flatten()).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(TwoViews(256), batch_size=32, shuffle=True)
    for i, (images, _) in enumerate(loader):
        images[0] = images[0].cuda(non_blocking=True)
        images[1] = images[1].cuda(non_blocking=True)
        q = model(images[0])
        k = model(images[1])
        loss = -(q * k).sum(dim=1).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
