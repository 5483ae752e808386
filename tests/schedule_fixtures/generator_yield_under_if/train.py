"""A repository generator that filters the loader's batches -- `if
valid(batch): yield batch` inside `for batch in loader`, then a `return`
after the loop -- taken by enumerate() in the step loop.  The test is not
decided by the code, so the yield is reached on one path only; the
generator's `return` ends it (StopIteration) and gives no item.  Each item
is the loader's (pinned) batch: its copy is the data hop of every step.

    python train.py
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def valid(batch):
    if len(batch[0]) == 0:
        return False
    return True


def filtered(loader, distributed):
    if not distributed:
        for batch in loader:
            if valid(batch):
                yield batch
        return
    for batch in loader:
        yield batch


def main():
    device = torch.device("cuda")
    data = TensorDataset(torch.randn(256, 8), torch.randn(256, 1))
    loader = DataLoader(data, batch_size=16, pin_memory=True, num_workers=2)
    model = nn.Linear(8, 1).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(3):
        for i, (x, y) in enumerate(filtered(loader, False)):
            x = x.to(device)
            y = y.to(device)
            loss = ((model(x) - y) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()


if __name__ == "__main__":
    main()
