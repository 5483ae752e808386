"""Top-k mixture-of-experts layer with expert parallelism: the experts are
split across the ranks of ep_group; tokens travel to their experts and back
with all-to-alls (one for the split sizes, one for the expert ids, and the
differentiable dispatch and combine)."""
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F


class _AllToAll(torch.autograd.Function):
    """all_to_all_single whose backward sends the gradients the opposite way."""

    @staticmethod
    def forward(ctx, x, out_splits, in_splits, group):
        ctx.splits, ctx.group = (out_splits, in_splits), group
        out = x.new_empty(sum(out_splits), *x.shape[1:])
        dist.all_to_all_single(out, x.contiguous(), out_splits, in_splits, group=group)
        return out

    @staticmethod
    def backward(ctx, grad):
        out_splits, in_splits = ctx.splits
        grad_in = grad.new_empty(sum(in_splits), *grad.shape[1:])
        dist.all_to_all_single(grad_in, grad.contiguous(), in_splits, out_splits, group=ctx.group)
        return grad_in, None, None, None


class ExpertMLP(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.w_in = nn.Linear(dim, 2 * hidden, bias=False)
        self.w_out = nn.Linear(hidden, dim, bias=False)

    def forward(self, x):
        gate, up = self.w_in(x).chunk(2, dim=-1)
        return self.w_out(F.silu(gate) * up)


class MoELayer(nn.Module):
    def __init__(self, dim, hidden, n_experts, top_k, ep_group):
        super().__init__()
        self.n_experts, self.top_k, self.ep_group = n_experts, top_k, ep_group
        self.ep_size = dist.get_world_size(ep_group)
        if n_experts % self.ep_size != 0:
            raise ValueError(f"{n_experts} experts cannot be split over {self.ep_size} ranks")
        self.n_local = n_experts // self.ep_size
        self.router = nn.Linear(dim, n_experts, bias=False)
        self.experts = nn.ModuleList([ExpertMLP(dim, hidden) for _ in range(self.n_local)])
        for p in self.experts.parameters():
            p.is_expert = True

    def forward(self, x):
        B, T, D = x.shape
        x = x.reshape(-1, D)
        probs = self.router(x).float().softmax(dim=-1)
        weights, chosen = probs.topk(self.top_k, dim=-1)
        weights = weights / weights.sum(dim=-1, keepdim=True)

        # load-balancing loss (Switch Transformer): fraction routed x mean probability
        flat = chosen.flatten()
        counts = torch.zeros(self.n_experts, dtype=torch.long, device=x.device)
        counts.scatter_add_(0, flat, torch.ones_like(flat))
        aux = self.n_experts * (counts.float() / flat.numel() * probs.mean(dim=0)).sum()

        # dispatch: sort the (token, slot) pairs by expert, which sorts them by rank
        order = flat.argsort()
        send = x.repeat_interleave(self.top_k, dim=0)[order]
        send_counts = counts.view(self.ep_size, self.n_local).sum(dim=1)
        recv_counts = torch.empty_like(send_counts)
        dist.all_to_all_single(recv_counts, send_counts, group=self.ep_group)
        in_splits = send_counts.tolist()
        out_splits = recv_counts.tolist()
        recv = _AllToAll.apply(send, out_splits, in_splits, self.ep_group)
        recv_expert = flat.new_empty(sum(out_splits))
        dist.all_to_all_single(recv_expert, flat[order], out_splits, in_splits, group=self.ep_group)

        # the local experts
        local_id = recv_expert % self.n_local
        out = torch.empty_like(recv)
        for i, expert in enumerate(self.experts):
            rows = torch.where(local_id == i)[0]
            if rows.numel() == 0:
                continue
            out[rows] = expert(recv[rows])

        # combine: results back to the tokens' ranks, undo the sort, weight the k slots
        back = _AllToAll.apply(out, in_splits, out_splits, self.ep_group)
        y = torch.empty_like(back)
        y[order] = back
        y = (y.view(-1, self.top_k, D) * weights.unsqueeze(-1).to(y.dtype)).sum(dim=1)
        return y.view(B, T, D), aux
