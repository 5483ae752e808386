# A library-style prepare() re-wraps a DataLoader by what torch built for
# it: a DataLoader given shuffle=True refuses an IterableDataset, so the
# library dataset it holds is map-style, and with no sampler given its
# .sampler is a RandomSampler, not a BatchSampler.  prepare() therefore
# returns the sharding wrapper, whose __iter__ copies each batch to the GPU.
import torch
from datasets import load_dataset
from torch.utils.data import BatchSampler, DataLoader, IterableDataset


class ShardLoader:
    def __init__(self, base, device):
        self.base = base
        self.device = device

    def __iter__(self):
        for batch in self.base:
            yield batch.to(self.device)


def prepare(dl, device):
    if isinstance(dl.dataset, IterableDataset):
        return dl
    if isinstance(dl.sampler, BatchSampler):
        return dl
    return ShardLoader(DataLoader(dl.dataset, batch_sampler=dl.batch_sampler, collate_fn=dl.collate_fn), device)


def collate(rows):
    return torch.tensor([r["x"] for r in rows])


def main():
    ds = load_dataset("glue", "mrpc")["train"]
    model = torch.nn.Linear(4, 2).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = prepare(DataLoader(ds, shuffle=True, batch_size=16, collate_fn=collate), torch.device("cuda"))
    for epoch in range(3):
        for x in loader:
            loss = model(x).sum()
            loss.backward()
            opt.step()
            opt.zero_grad()


main()
