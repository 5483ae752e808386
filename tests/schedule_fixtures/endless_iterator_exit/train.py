import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Cycle:
    def __init__(self, iterable):
        self._iterable = iterable
        self._iterator = iter(self._iterable)

    def __iter__(self):
        return self

    def __next__(self):
        try:
            item = next(self._iterator)
        except StopIteration:
            self._iterator = iter(self._iterable)
            item = next(self._iterator)
        return item


def main(num_iterations=1000, save_every=100, report_every=300):
    model = nn.Linear(16, 4).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    data = TensorDataset(torch.randn(256, 16), torch.randn(256, 4))
    loader = Cycle(DataLoader(data, batch_size=8))
    for step, (x, y) in enumerate(loader, start=1):
        if step >= num_iterations:
            break
        x, y = x.cuda(), y.cuda()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()
    if step % save_every != 0:
        torch.save(model.state_dict(), "last.pt")
    if step % report_every != 0:
        torch.save(model.state_dict(), "report.pt")


if __name__ == "__main__":
    main()
