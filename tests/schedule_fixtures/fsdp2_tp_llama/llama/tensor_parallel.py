"""Megatron-style tensor parallelism over one process group.

ColumnParallelLinear splits the output features across the TP ranks,
RowParallelLinear the input features; a column layer followed by a row layer
needs one all-reduce in forward (after the row layer) and one in backward
(before the column layer).
"""
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F


class _CopyToTP(torch.autograd.Function):
    """Identity in forward; sums the input gradient over the TP group."""

    @staticmethod
    def forward(ctx, x, group):
        ctx.group = group
        return x

    @staticmethod
    def backward(ctx, grad):
        grad = grad.contiguous()
        dist.all_reduce(grad, group=ctx.group)
        return grad, None


class _ReduceFromTP(torch.autograd.Function):
    """Sums partial outputs over the TP group; identity in backward."""

    @staticmethod
    def forward(ctx, x, group):
        x = x.contiguous()
        dist.all_reduce(x, group=group)
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad, None


class _GatherFromTP(torch.autograd.Function):
    """Concatenates the last dimension from every TP rank; backward keeps this rank's slice."""

    @staticmethod
    def forward(ctx, x, group):
        ctx.group = group
        parts = [torch.empty_like(x) for _ in range(dist.get_world_size(group))]
        dist.all_gather(parts, x.contiguous(), group=group)
        return torch.cat(parts, dim=-1)

    @staticmethod
    def backward(ctx, grad):
        world = dist.get_world_size(ctx.group)
        rank = dist.get_rank(ctx.group)
        return grad.chunk(world, dim=-1)[rank].contiguous(), None


class ColumnParallelLinear(nn.Module):
    def __init__(self, in_features, out_features, group, gather_output=False):
        super().__init__()
        self.group = group
        self.gather_output = gather_output
        tp = dist.get_world_size(group)
        if out_features % tp != 0:
            raise ValueError(f"out_features={out_features} is not divisible by the TP degree {tp}")
        self.weight = nn.Parameter(torch.empty(out_features // tp, in_features))

    def forward(self, x):
        x = _CopyToTP.apply(x, self.group)
        y = F.linear(x, self.weight)
        if self.gather_output:
            y = _GatherFromTP.apply(y, self.group)
        return y


class RowParallelLinear(nn.Module):
    def __init__(self, in_features, out_features, group):
        super().__init__()
        self.group = group
        tp = dist.get_world_size(group)
        self.weight = nn.Parameter(torch.empty(out_features, in_features // tp))

    def forward(self, x):
        return _ReduceFromTP.apply(F.linear(x, self.weight), self.group)


class VocabParallelEmbedding(nn.Module):
    """Each TP rank holds a contiguous range of the vocabulary."""

    def __init__(self, vocab_size, dim, group):
        super().__init__()
        self.group = group
        tp = dist.get_world_size(group)
        per_rank = vocab_size // tp
        self.start = dist.get_rank(group) * per_rank
        self.end = self.start + per_rank
        self.weight = nn.Parameter(torch.empty(per_rank, dim))

    def forward(self, ids):
        outside = (ids < self.start) | (ids >= self.end)
        local = (ids - self.start).masked_fill(outside, 0)
        out = F.embedding(local, self.weight)
        out = torch.where(outside.unsqueeze(-1), torch.zeros_like(out), out)
        return _ReduceFromTP.apply(out, self.group)
