"""A parameter a *args of unknown length may set: its default may stand.

- Stage.forward(*inputs) converts its inputs on the first pipeline stage
  only (RANK decides) with a recursive helper, so the tuple it passes on
  is not known item by item: Block.forward(x, hidden=None) may get its
  `hidden` from it, or keep the default None.  `hidden is None` is not
  decided: the embedding path, with its tensor-parallel all-reduce, runs
  on some ranks (a row), it is not skipped as if `hidden` were given.
"""
import os

import torch
import torch.distributed as dist


def convert(val):
    if not isinstance(val, (tuple, list)):
        return val.half()
    out = [convert(v) for v in val]
    if isinstance(val, tuple):
        out = tuple(out)
    return out


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = torch.nn.Embedding(1000, 64)
        self.fc = torch.nn.Linear(64, 64)

    def forward(self, x, hidden=None):
        if hidden is None:
            hidden = self.embed(x)
            dist.all_reduce(hidden)
        return self.fc(hidden)


class Stage(torch.nn.Module):
    def __init__(self, first):
        super().__init__()
        self.first = first
        self.block = Block()

    def forward(self, *inputs, **kwargs):
        if self.first:
            inputs = convert(inputs)
        return self.block(*inputs, **kwargs)


def main():
    dist.init_process_group("nccl")
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    model = Stage(dist.get_rank() == 0).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        tokens = torch.randint(0, 1000, (8, 16), device="cuda")
        y = model(tokens)
        y.float().sum().backward()
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
