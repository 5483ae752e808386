"""A data-parallel step in the manner of Megatron-LM's distributed optimizer.

- The reduce-scatter function is a module global chosen by a version test
  the code does not decide, and rebound by a bucket group's __init__
  (`global`) under a config flag read from a file: each path's callee is
  a reduce-scatter, so the call is one, whichever path runs.
- The optimizer is built only when there are parameter groups (read from
  a file: None on the other path), and the wrapper replaces it when it is
  its own hybrid class: neither path holds a Hybrid, so it is kept.
- Loading a checkpoint steps the optimizer once before the loop (to make
  its states); the step is still the loop around the micro-batch loop
  that holds the optimizer's step in the loop.
"""
import json

import torch
import torch.distributed as dist

try:
    if torch.__version__ >= "1.13":
        reduce_scatter = dist.reduce_scatter_tensor
    else:
        reduce_scatter = dist._reduce_scatter_base
except Exception:
    reduce_scatter = dist._reduce_scatter_base


def reduce_scatter_fp32(output, input, group=None, async_op=False):
    return dist.reduce_scatter_tensor(output, input.float(), group=group, async_op=async_op)


class BucketGroup:
    def __init__(self, cfg, grad_data):
        global reduce_scatter
        self.grad_data = grad_data
        if cfg.get("fp32_accumulation"):
            reduce_scatter = reduce_scatter_fp32

    def start_grad_sync(self, world):
        shard = self.grad_data.view(world, -1)[dist.get_rank()]
        return reduce_scatter(shard, self.grad_data, async_op=True)


class Hybrid(torch.optim.Optimizer):
    def __init__(self, params):
        super().__init__(params, {})


class Wrapper:
    def __init__(self, optimizer):
        self.optimizer = optimizer
        if isinstance(self.optimizer, Hybrid):
            self.optimizer = Hybrid([])

    def step(self):
        self.optimizer.step()

    def load_state(self):
        self.optimizer.step()   # make the optimizer's states


def main():
    dist.init_process_group("nccl")
    world = dist.get_world_size()
    torch.cuda.set_device(dist.get_rank())
    cfg = json.load(open("ddp.json"))
    model = torch.nn.Linear(64, 64).cuda()
    groups = json.load(open("groups.json"))
    if groups:
        inner = torch.optim.Adam(model.parameters(), lr=1e-4)
    else:
        inner = None
    opt = Wrapper(inner)
    bucket = BucketGroup(cfg, torch.zeros(64 * 64, device="cuda"))
    opt.load_state()
    for step in range(1000):
        for micro in range(4):
            y = model(torch.randn(8, 64, device="cuda"))
            y.sum().backward()
        work = bucket.start_grad_sync(world)
        work.wait()
        opt.step()


if __name__ == "__main__":
    main()
