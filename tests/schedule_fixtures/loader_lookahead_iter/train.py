# A loader wrapper that iterates one batch ahead, calling the loader's
# __iter__ and __next__ by name (the form of accelerate's DataLoaderShard):
# its batches are the loader's, moved to the device in the generator.
import torch
from torch.utils.data import DataLoader


class LookAhead:
    def __init__(self, dl, device):
        self.dl = dl
        self.device = device

    def __iter__(self):
        it = self.dl.__iter__()
        try:
            cur = it.__next__()
        except StopIteration:
            return
        while True:
            try:
                cur = cur.to(self.device)
                nxt = next(it)
                yield cur
                cur = nxt
            except StopIteration:
                yield cur
                break


def main():
    device = torch.device("cuda")
    model = torch.nn.Linear(4, 2).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    train = LookAhead(DataLoader(torch.randn(64, 4), batch_size=8), device)
    evl = LookAhead(DataLoader(torch.randn(64, 4), batch_size=8), device)
    for epoch in range(3):
        model.train()
        for x in train:
            loss = model(x).sum()
            loss.backward()
            opt.step()
            opt.zero_grad()
        model.eval()
        for x in evl:
            with torch.no_grad():
                out = model(x)
            print(f"{out}")


main()
