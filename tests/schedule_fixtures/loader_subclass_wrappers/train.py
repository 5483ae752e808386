"""A training loop over a repository subclass of torch's DataLoader that
reuses its workers (the base's iterator kept in __init__, __iter__ a
generator taking len(self) batches from it), wrapped in enumerate() and a
progress bar; an evaluation over a subclass that keeps torch's constructor
and iterator, under another library's progress bar (ultralytics' TQDM, a
tqdm subclass); and a look-alike: a progress bar over a class of the job
whose __iter__ makes its tensors on the device.

    python train.py
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset, dataloader
from tqdm import tqdm
from ultralytics.utils import TQDM


class InfiniteDataLoader(dataloader.DataLoader):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        object.__setattr__(self, "batch_sampler", _RepeatSampler(self.batch_sampler))
        self.iterator = super().__iter__()

    def __len__(self):
        return len(self.batch_sampler.sampler)

    def __iter__(self):
        for _ in range(len(self)):
            yield next(self.iterator)


class _RepeatSampler:
    def __init__(self, sampler):
        self.sampler = sampler

    def __iter__(self):
        while True:
            yield from iter(self.sampler)


class EvalLoader(DataLoader):
    def describe(self):
        return "eval"


class DeviceNoise:
    def __init__(self, n, device):
        self.n = n
        self.device = device

    def __iter__(self):
        for _ in range(self.n):
            yield torch.randn(64, 20, device=self.device)


def main():
    device = torch.device("cuda")
    data = TensorDataset(torch.randn(2048, 20), torch.randint(0, 4, (2048,)))
    train_loader = InfiniteDataLoader(data, batch_size=64, shuffle=True, pin_memory=True)
    val_loader = EvalLoader(data, batch_size=256)
    model = nn.Linear(20, 4).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(10):
        pbar = enumerate(train_loader)
        pbar = tqdm(pbar, total=len(train_loader))
        for i, (x, y) in pbar:
            x = x.to(device, non_blocking=True)
            loss = nn.functional.cross_entropy(model(x), y.to(device))
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            for x, y in TQDM(val_loader, desc=val_loader.describe()):
                model(x.to(device))
            for z in tqdm(DeviceNoise(4, device)):
                model(z.to(device))


if __name__ == "__main__":
    main()
