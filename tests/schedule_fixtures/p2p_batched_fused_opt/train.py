"""A pipeline stage's training step in the manner of Megatron-LM: the
activations are exchanged with batch_isend_irecv over a group whose name
does not say which parallelism it serves, the backward is the autograd
engine's run_backward (Megatron's custom_backward) and the optimizer is a
third-party FusedAdam."""
import argparse

import torch
import torch.distributed as dist
from apex.optimizers import FusedAdam
from torch.autograd.variable import Variable


class Stage(torch.nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc = torch.nn.Linear(d, d)

    def forward(self, x):
        return torch.relu(self.fc(x))


def exchange(send_next, recv_prev, group, prev_rank, next_rank):
    ops = []
    if recv_prev is not None:
        ops.append(dist.P2POp(dist.irecv, recv_prev, prev_rank, group))
    if send_next is not None:
        ops.append(dist.P2POp(dist.isend, send_next, next_rank, group))
    reqs = dist.batch_isend_irecv(ops)
    for r in reqs:
        r.wait()


def custom_backward(output, grad_output):
    Variable._execution_engine.run_backward(
        tensors=(output,),
        grad_tensors=(grad_output,),
        keep_graph=False,
        create_graph=False,
        inputs=tuple(),
        allow_unreachable=True,
        accumulate_grad=True,
    )


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=100)
    p.add_argument("--micro-batches", type=int, default=4)
    args = p.parse_args()
    dist.init_process_group("nccl")
    rank, world = dist.get_rank(), dist.get_world_size()
    group = dist.new_group(list(range(world)))
    torch.cuda.set_device(rank)
    model = Stage(64).cuda()
    opt = FusedAdam(model.parameters(), lr=1e-4)
    for step in range(args.steps):
        opt.zero_grad()
        for mb in range(args.micro_batches):
            x = torch.empty(8, 64, device="cuda")
            exchange(None, x, group, rank - 1, rank + 1)
            y = model(x)
            exchange(y, None, group, rank - 1, rank + 1)
            custom_backward(y, torch.ones_like(y))
        opt.step()


if __name__ == "__main__":
    main()
