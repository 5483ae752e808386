"""A token loader that reads each shard into a pinned host buffer
(torch.empty(..., pin_memory=True)) and copies slices of it with
non_blocking=True: the source of those copies is pinned memory.  A
buffer made without pin_memory is not."""
import torch
import torch.nn as nn


def load_shard(n):
    tokens = torch.empty(n, dtype=torch.uint16, pin_memory=True)
    return tokens


class Loader:
    def __init__(self, n):
        self.tokens = load_shard(n)
        self.pos = 0

    def next_batch(self, b):
        chunk = self.tokens[self.pos:self.pos + b + 1]
        self.pos += b
        x = chunk[:-1].to(device="cuda", dtype=torch.int32, non_blocking=True)
        y = chunk[1:].to(device="cuda", dtype=torch.int64, non_blocking=True)
        return x, y


def main():
    model = nn.Embedding(65536, 8).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = Loader(1 << 20)
    noise = torch.empty(1024, pin_memory=False)
    for step in range(100):
        x, y = loader.next_batch(1024)
        n = noise.to(device="cuda", non_blocking=True)
        loss = model(x).float().mean() + n.mean()
        loss.backward()
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
