"""jsonargparse CLI whose config file names the data module by its class
(`data: PinnedData`) for a parameter typed with the base class:
jsonargparse builds that subclass with its defaults.  PinnedData's loader
pins memory; the copy of each batch is then a pinned, non-blocking one.
The default (data=None) would have been PlainData, which does not pin."""
import torch
import torch.nn as nn
from jsonargparse import CLI
from torch.utils.data import DataLoader, TensorDataset


class DataModule:
    batch_size: int = 16

    def train_dataloader(self):
        raise NotImplementedError


class PlainData(DataModule):
    def train_dataloader(self):
        return DataLoader(TensorDataset(torch.randn(512, 8)), batch_size=self.batch_size)


class PinnedData(DataModule):
    def train_dataloader(self):
        return DataLoader(TensorDataset(torch.randn(512, 8)), batch_size=self.batch_size, pin_memory=True)


def setup(data: DataModule | None = None, epochs: int = 2):
    data = PlainData() if data is None else data
    device = torch.device("cuda")
    model = nn.Linear(8, 1).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = data.train_dataloader()
    for epoch in range(epochs):
        for (x,) in loader:
            x = x.to(device, non_blocking=True)
            loss = model(x).pow(2).mean()
            loss.backward()
            opt.step()
            opt.zero_grad()


if __name__ == "__main__":
    CLI(setup)
