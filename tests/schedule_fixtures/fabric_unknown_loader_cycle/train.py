"""Lightning Fabric on one GPU.  The train loader comes from a data
module this repository does not hold (its pinning is not known here); the
validation loader is a library's loader told to pin.  setup_dataloaders
hands back loaders that move each batch to the GPU with non_blocking=True.
The train loader is read through a cycling iterator of the job's own
(__iter__ returns self, __next__ takes the next batch), as litgpt does."""
import torch
import torch.nn as nn
from lightning.fabric import Fabric
from litdata import StreamingDataLoader, StreamingDataset
from mydata import make_loader


class CycleIterator:
    def __init__(self, iterable):
        self.iterable = iterable
        self._iterator = None

    def __next__(self):
        if self._iterator is None:
            self._iterator = iter(self.iterable)
        try:
            return next(self._iterator)
        except StopIteration:
            self._iterator = iter(self.iterable)
            return next(self._iterator)

    def __iter__(self):
        return self


def main(steps=100):
    fabric = Fabric(accelerator="cuda", devices=1)
    fabric.launch()
    model = nn.Linear(32, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    model, optimizer = fabric.setup(model, optimizer)
    train_loader = make_loader()
    val_loader = StreamingDataLoader(StreamingDataset("s3://x"), batch_size=8, pin_memory=True)
    train_loader, val_loader = fabric.setup_dataloaders(train_loader, val_loader)
    i = 0
    for x in CycleIterator(train_loader):
        loss = model(x).pow(2).mean()
        fabric.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
        i += 1
        if i % 10 == 0:
            with torch.no_grad():
                for vb in val_loader:
                    model(vb)
        if i >= steps:
            break


if __name__ == "__main__":
    main()
