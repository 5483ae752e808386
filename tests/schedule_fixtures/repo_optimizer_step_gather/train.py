# The repository's own optimizer (a torch.optim.Optimizer subclass) that
# spreads its update work over the ranks: each rank computes the update of
# one parameter in world_size and all_gathers them.  Its step() is the
# optimizer step: the all_gather inside it is the optimizer's work, as are
# the optimizers stepped in a loop over a list.  A helper the step loop
# calls directly (not an optimizer) keeps the step's phase.
import os
import torch
import torch.nn as nn
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


class Spread(torch.optim.Optimizer):
    def __init__(self, params, lr=0.02):
        self.world_size = int(os.environ["WORLD_SIZE"])
        super().__init__(params, dict(lr=lr))

    @torch.no_grad()
    def step(self):
        for group in self.param_groups:
            params = group["params"]
            for base in range(0, len(params), self.world_size):
                p = params[base]
                bufs = [torch.empty_like(p) for _ in range(self.world_size)]
                work = dist.all_gather(bufs, p.grad, async_op=True)
                work.wait()
                p.add_(bufs[0], alpha=-group["lr"])


def report(loss):
    dist.all_reduce(loss, op=dist.ReduceOp.AVG)


dist.init_process_group(backend="nccl")
local_rank = int(os.environ["LOCAL_RANK"])
torch.cuda.set_device(local_rank)
model = nn.Linear(64, 64, bias=False).cuda()
ddp = DDP(model, device_ids=[local_rank])
opt1 = torch.optim.SGD([model.weight], lr=0.1)
opt2 = Spread([model.weight])
optimizers = [opt1, opt2]

for step in range(100):
    x = torch.randn(8, 64, device="cuda")
    loss = ddp(x).pow(2).mean()
    loss.backward()
    for opt in optimizers:
        opt.step()
    report(loss.detach())
    model.zero_grad(set_to_none=True)
