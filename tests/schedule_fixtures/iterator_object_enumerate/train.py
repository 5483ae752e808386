"""A cycling iterator object over a loader (the form of DeepSpeedExamples'
HelloDeepSpeed InfiniteIterator), its __iter__ returning itself and its
__next__ starting the loader again on StopIteration, taken under
enumerate(): each item is a batch of the loader."""
import torch
from torch.utils.data import DataLoader, TensorDataset


class InfiniteIterator(object):
    def __init__(self, iterable):
        self._iterable = iterable
        self._iterator = iter(self._iterable)

    def __iter__(self):
        return self

    def __next__(self):
        next_item = None
        try:
            next_item = next(self._iterator)
        except StopIteration:
            self._iterator = iter(self._iterable)
            next_item = next(self._iterator)
        return next_item


model = torch.nn.Linear(4, 1).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.randn(64, 4), torch.randn(64, 1)), batch_size=8)
it = InfiniteIterator(loader)
for step, batch in enumerate(it, start=1):
    if step >= 100:
        break
    batch = list(batch)
    for i in range(len(batch)):
        batch[i] = batch[i].to("cuda")
    x, y = batch
    loss = (model(x) - y).pow(2).mean()
    loss.backward()
    opt.step()
