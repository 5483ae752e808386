"""A map-style dataset that makes a whole batch in __getitem__ (DLRM's
random data): an int index gives (dense, offsets, indices); a slice
gives a list of those (a branch the DataLoader's sampler never takes).
The collate_fn takes the one sample, stacks the offsets and keeps the
indices a list.  The step moves each part: the indices table by table
(a list), the offsets as one tensor -- the other arm of each
conditional expression does not run."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class RandomBatches(Dataset):
    def __init__(self, n_tables=3, batch=128, num_batches=100):
        self.n_tables = n_tables
        self.batch = batch
        self.num_batches = num_batches

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(index.start or 0, index.stop or len(self))]
        dense = torch.rand(self.batch, 13)
        offsets = [torch.arange(self.batch) for _ in range(self.n_tables)]
        indices = [torch.randint(0, 1000, (self.batch,)) for _ in range(self.n_tables)]
        return (dense, offsets, indices)

    def __len__(self):
        return self.num_batches


def collate(list_of_tuples):
    (dense, offsets, indices) = list_of_tuples[0]
    return (dense, torch.stack(offsets), indices)


def main():
    device = torch.device("cuda")
    bags = nn.ModuleList([nn.EmbeddingBag(1000, 16, mode="sum") for _ in range(3)]).to(device)
    top = nn.Linear(13 + 48, 1).to(device)
    opt = torch.optim.SGD(list(bags.parameters()) + list(top.parameters()), lr=0.1)
    loader = DataLoader(RandomBatches(), batch_size=1, shuffle=False, num_workers=0, collate_fn=collate)
    for dense, offsets, indices in loader:
        indices = (
            [t.to(device) for t in indices]
            if isinstance(indices, list)
            else indices.to(device)
        )
        offsets = (
            [t.to(device) for t in offsets]
            if isinstance(offsets, list)
            else offsets.to(device)
        )
        dense = dense.to(device)
        emb = [bag(i, o) for bag, i, o in zip(bags, indices, offsets)]
        loss = top(torch.cat([dense] + emb, dim=1)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
