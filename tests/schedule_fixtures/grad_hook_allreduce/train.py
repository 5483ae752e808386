# Data parallelism written by hand: a hook on each parameter queues a
# callback on autograd's engine that all-reduces the gradients once the
# backward has finished (NVIDIA's apply_gradient_allreduce); the state is
# broadcast from rank 0 when the model is wrapped.  No launcher: the
# process count is the world_size the script gives init_process_group.
# The critic's backward goes through no hooked parameter.
import argparse

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.autograd import Variable

parser = argparse.ArgumentParser()
parser.add_argument("--world", type=int, default=1)
parser.add_argument("--rank", type=int, default=0)
args = parser.parse_args()


def apply_allreduce(module):
    for p in module.state_dict().values():
        dist.broadcast(p, 0)

    def allreduce_params():
        grads = [p.grad.data for p in module.parameters()]
        flat = torch.cat([g.view(-1) for g in grads])
        dist.all_reduce(flat)
        flat /= dist.get_world_size()

    for param in list(module.parameters()):
        def hook(*unused):
            Variable._execution_engine.queue_callback(allreduce_params)
        param.register_hook(hook)
    return module


dist.init_process_group(backend="nccl", init_method="tcp://localhost:23456",
                        world_size=args.world, rank=args.rank)
torch.cuda.set_device(args.rank)
model = apply_allreduce(nn.Linear(32, 32).cuda())
critic = nn.Linear(32, 1).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(100):
    x = Variable(torch.randn(8, 32, device="cuda"))
    loss = model(x).sum()
    loss.backward()
    opt.step()
    opt.zero_grad()
    critic(x).sum().backward()
