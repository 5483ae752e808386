"""Multi-crop batches: the loader yields a list of crops whose number the
dataset decides; each crop is copied to the GPU in a comprehension, and
the per-crop losses are read back in another.  How many crops there are
the launch decides (N_LOCAL): per step, a count not known -- not one."""
import os

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class Crops(Dataset):
    def __init__(self, n_local):
        self.n_local = n_local

    def __len__(self):
        return 1000

    def __getitem__(self, i):
        return [torch.randn(3, 32, 32) for _ in range(2 + self.n_local)], 0


def main():
    model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 10)).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(Crops(int(os.environ["N_LOCAL"])), batch_size=16, pin_memory=True)
    for step, (images, _) in enumerate(loader):
        images = [im.cuda(non_blocking=True) for im in images]
        losses = [model(im).pow(2).mean() for im in images]
        loss = sum(losses)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, [l.item() for l in losses])


if __name__ == "__main__":
    main()
