"""Process groups for (data x pipeline) parallelism and a GPipe schedule:
every micro-batch forward, then every backward in reverse order, activations
and their gradients sent point-to-point between neighbouring stages."""
from dataclasses import dataclass

import torch
import torch.distributed as dist
import torch.nn.functional as F


@dataclass
class PipeContext:
    pp_group: object
    dp_group: object
    stage: int
    n_stages: int
    dp_rank: int
    dp_size: int
    prev_rank: int
    next_rank: int
    last_rank: int

    @property
    def is_first(self):
        return self.stage == 0

    @property
    def is_last(self):
        return self.stage == self.n_stages - 1


def setup_groups(pp_size):
    world, rank = dist.get_world_size(), dist.get_rank()
    dp_size = world // pp_size
    pp_group = dp_group = None
    for d in range(dp_size):
        ranks = [d * pp_size + s for s in range(pp_size)]
        group = dist.new_group(ranks)
        if rank in ranks:
            pp_group = group
    for s in range(pp_size):
        ranks = [d * pp_size + s for d in range(dp_size)]
        group = dist.new_group(ranks)
        if rank in ranks:
            dp_group = group
    stage, dp_rank = rank % pp_size, rank // pp_size
    first_of_pipe = dp_rank * pp_size
    return PipeContext(pp_group, dp_group, stage, pp_size, dp_rank, dp_size,
                       rank - 1, rank + 1, first_of_pipe + pp_size - 1)


def gpipe_step(stage_model, micro_batches, ctx, act_shape, device):
    inputs, outputs, losses = [], [], []
    n_micro = len(micro_batches)
    for tokens, labels in micro_batches:
        if ctx.is_first:
            x = tokens.to(device, non_blocking=True)
        else:
            x = torch.empty(act_shape, dtype=torch.bfloat16, device=device)
            dist.recv(x, src=ctx.prev_rank, group=ctx.pp_group)
            x.requires_grad_()
        with torch.autocast("cuda", dtype=torch.bfloat16):
            out = stage_model(x)
        if ctx.is_last:
            targets = labels.to(device, non_blocking=True)
            losses.append(F.cross_entropy(out.float().flatten(0, 1), targets.flatten()) / n_micro)
        else:
            dist.send(out.detach().to(torch.bfloat16).contiguous(), dst=ctx.next_rank, group=ctx.pp_group)
        inputs.append(x)
        outputs.append(out)

    pending = []
    for i in reversed(range(n_micro)):
        if ctx.is_last:
            losses[i].backward()
        else:
            grad = torch.empty(act_shape, dtype=torch.bfloat16, device=device)
            dist.recv(grad, src=ctx.next_rank, group=ctx.pp_group)
            outputs[i].backward(grad.to(outputs[i].dtype))
        if not ctx.is_first:
            pending.append(dist.isend(inputs[i].grad, dst=ctx.prev_rank, group=ctx.pp_group))
    for req in pending:
        req.wait()
    if ctx.is_last:
        return torch.stack(losses).sum().detach()
    return torch.zeros((), device=device)


def allreduce_grads(stage_model, dp_group):
    grads = [p.grad for p in stage_model.parameters() if p.grad is not None]
    flat = torch._utils._flatten_dense_tensors(grads)
    dist.all_reduce(flat, op=dist.ReduceOp.AVG, group=dp_group)
    for g, synced in zip(grads, torch._utils._unflatten_dense_tensors(flat, grads)):
        g.copy_(synced)


def clip_grad_norm_pipeline(stage_model, max_norm, pp_group):
    grads = [p.grad for p in stage_model.parameters() if p.grad is not None]
    sq = torch.stack([g.float().pow(2).sum() for g in grads]).sum()
    dist.all_reduce(sq, group=pp_group)
    norm = sq.sqrt()
    torch._foreach_mul_(grads, (max_norm / (norm + 1e-6)).clamp(max=1.0))
    return norm
