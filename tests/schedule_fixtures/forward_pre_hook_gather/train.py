"""Collectives issued from forward hooks registered on a module.

- A wrapper registers a forward pre-hook (a closure over the wrapper) on
  the model: it starts an async all-gather of the parameter shard before
  each forward, in the forward phase, once per model call.
- A second pre-hook (a bound method) is registered and its handle removed
  before training: it never runs (its all_reduce is not a row).
- A forward hook (after forward) all-reduces a statistic synchronously.
"""
import torch
import torch.distributed as dist


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(64, 64)

    def forward(self, x):
        return self.fc(x)


class Gatherer:
    def __init__(self, module, shard, full):
        self.shard = shard
        self.full = full
        module.register_forward_pre_hook(self._make_pre_hook())
        handle = module.register_forward_pre_hook(self.unused_hook)
        handle.remove()
        module.register_forward_hook(self.stat_hook)

    def _make_pre_hook(self):
        def hook(module, *unused):
            self.work = dist.all_gather_into_tensor(self.full, self.shard, async_op=True)

        return hook

    def unused_hook(self, module, args):
        dist.all_reduce(self.shard)

    def stat_hook(self, module, args, output):
        dist.all_reduce(self.full)


def main():
    dist.init_process_group("nccl")
    torch.cuda.set_device(dist.get_rank())
    model = Net().cuda()
    world = dist.get_world_size()
    shard = torch.zeros(64, device="cuda")
    full = torch.zeros(64 * world, device="cuda")
    Gatherer(model, shard, full)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        y = model(torch.randn(8, 64, device="cuda"))
        y.sum().backward()
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
