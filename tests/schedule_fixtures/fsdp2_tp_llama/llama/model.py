"""Llama-style decoder with Megatron tensor parallelism inside each block."""
import math
from dataclasses import dataclass

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

from .tensor_parallel import ColumnParallelLinear, RowParallelLinear, VocabParallelEmbedding


@dataclass
class ModelArgs:
    dim: int = 2048
    n_layers: int = 16
    n_heads: int = 16
    vocab_size: int = 32000
    ffn_hidden: int = 5632
    max_seq_len: int = 2048
    rope_theta: float = 10000.0
    norm_eps: float = 1e-5
    activation_checkpointing: bool = True


class RMSNorm(nn.Module):
    def __init__(self, dim, eps):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        x32 = x.float()
        return (x32 * torch.rsqrt(x32.pow(2).mean(-1, keepdim=True) + self.eps)).type_as(x) * self.weight


def rope_tables(head_dim, seq_len, theta, device):
    inv = 1.0 / (theta ** (torch.arange(0, head_dim, 2, device=device).float() / head_dim))
    angles = torch.outer(torch.arange(seq_len, device=device).float(), inv)
    return torch.cos(angles), torch.sin(angles)


def apply_rope(x, cos, sin):
    x1, x2 = x[..., 0::2], x[..., 1::2]
    cos, sin = cos[: x.shape[1]].unsqueeze(1), sin[: x.shape[1]].unsqueeze(1)
    return torch.stack((x1 * cos - x2 * sin, x1 * sin + x2 * cos), dim=-1).flatten(-2)


class Attention(nn.Module):
    def __init__(self, args, tp_group):
        super().__init__()
        tp = dist.get_world_size(tp_group)
        self.head_dim = args.dim // args.n_heads
        self.local_heads = args.n_heads // tp
        self.wqkv = ColumnParallelLinear(args.dim, 3 * args.dim, tp_group)
        self.wo = RowParallelLinear(args.dim, args.dim, tp_group)

    def forward(self, x, cos, sin):
        B, T, _ = x.shape
        q, k, v = self.wqkv(x).view(B, T, 3, self.local_heads, self.head_dim).unbind(2)
        q, k = apply_rope(q, cos, sin), apply_rope(k, cos, sin)
        y = F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), is_causal=True)
        return self.wo(y.transpose(1, 2).reshape(B, T, -1))


class FeedForward(nn.Module):
    def __init__(self, args, tp_group):
        super().__init__()
        self.w1 = ColumnParallelLinear(args.dim, args.ffn_hidden, tp_group)
        self.w3 = ColumnParallelLinear(args.dim, args.ffn_hidden, tp_group)
        self.w2 = RowParallelLinear(args.ffn_hidden, args.dim, tp_group)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class TransformerBlock(nn.Module):
    def __init__(self, args, tp_group):
        super().__init__()
        self.attention_norm = RMSNorm(args.dim, args.norm_eps)
        self.attention = Attention(args, tp_group)
        self.ffn_norm = RMSNorm(args.dim, args.norm_eps)
        self.feed_forward = FeedForward(args, tp_group)

    def forward(self, x, cos, sin):
        h = x + self.attention(self.attention_norm(x), cos, sin)
        return h + self.feed_forward(self.ffn_norm(h))


class Transformer(nn.Module):
    def __init__(self, args, tp_group):
        super().__init__()
        self.args = args
        self.tok_embeddings = VocabParallelEmbedding(args.vocab_size, args.dim, tp_group)
        self.layers = nn.ModuleList([TransformerBlock(args, tp_group) for _ in range(args.n_layers)])
        self.norm = RMSNorm(args.dim, args.norm_eps)
        self.output = ColumnParallelLinear(args.dim, args.vocab_size, tp_group, gather_output=True)
        self.register_buffer("rope_cos", torch.empty(args.max_seq_len, args.dim // args.n_heads // 2), persistent=False)
        self.register_buffer("rope_sin", torch.empty(args.max_seq_len, args.dim // args.n_heads // 2), persistent=False)

    @torch.no_grad()
    def init_weights(self):
        cos, sin = rope_tables(self.args.dim // self.args.n_heads, self.args.max_seq_len, self.args.rope_theta,
                               self.rope_cos.device)
        self.rope_cos.copy_(cos)
        self.rope_sin.copy_(sin)
        std = 0.02 / math.sqrt(2 * self.args.n_layers)
        for name, p in self.named_parameters():
            if name.endswith("norm.weight"):
                nn.init.ones_(p)
            else:
                nn.init.trunc_normal_(p, std=0.02 if "tok_embeddings" in name or "output" in name else std)

    def forward(self, tokens):
        if tokens.shape[1] > self.args.max_seq_len:
            raise ValueError(f"{tokens.shape[1]} tokens > max_seq_len {self.args.max_seq_len}")
        h = self.tok_embeddings(tokens)
        for layer in self.layers:
            if self.args.activation_checkpointing and self.training:
                h = checkpoint(layer, h, self.rope_cos, self.rope_sin, use_reentrant=False)
            else:
                h = layer(h, self.rope_cos, self.rope_sin)
        return self.output(self.norm(h)).float()
