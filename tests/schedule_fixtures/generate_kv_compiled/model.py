"""Decoder-only transformer with a static KV cache for incremental decoding."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class ModelArgs:
    vocab_size: int = 259
    dim: int = 2048
    n_layers: int = 22
    n_heads: int = 32
    n_kv_heads: int = 4
    hidden: int = 5632
    rope_base: float = 10000.0
    norm_eps: float = 1e-5


class KVCache(nn.Module):
    def __init__(self, batch, n_kv_heads, max_seq_len, head_dim, dtype, device):
        super().__init__()
        shape = (batch, n_kv_heads, max_seq_len, head_dim)
        self.register_buffer("k", torch.zeros(shape, dtype=dtype, device=device), persistent=False)
        self.register_buffer("v", torch.zeros(shape, dtype=dtype, device=device), persistent=False)

    def update(self, input_pos, k, v):
        if input_pos.shape[0] != k.shape[2]:
            raise ValueError("positions and new keys disagree")
        self.k.index_copy_(2, input_pos, k)
        self.v.index_copy_(2, input_pos, v)
        return self.k, self.v


def rotate(x, cos, sin):
    x1, x2 = x.float().chunk(2, dim=-1)
    return torch.cat((x1 * cos - x2 * sin, x2 * cos + x1 * sin), dim=-1).type_as(x)


class Attention(nn.Module):
    def __init__(self, args):
        super().__init__()
        self.n_heads, self.n_kv_heads = args.n_heads, args.n_kv_heads
        self.head_dim = args.dim // args.n_heads
        self.wq = nn.Linear(args.dim, args.n_heads * self.head_dim, bias=False)
        self.wkv = nn.Linear(args.dim, 2 * args.n_kv_heads * self.head_dim, bias=False)
        self.wo = nn.Linear(args.n_heads * self.head_dim, args.dim, bias=False)
        self.kv_cache = None

    def forward(self, x, cos, sin, mask, input_pos):
        B, T, _ = x.shape
        q = self.wq(x).view(B, T, self.n_heads, self.head_dim)
        k, v = self.wkv(x).view(B, T, 2, self.n_kv_heads, self.head_dim).unbind(2)
        q, k = rotate(q, cos, sin).transpose(1, 2), rotate(k, cos, sin).transpose(1, 2)
        k, v = self.kv_cache.update(input_pos, k, v.transpose(1, 2))
        rep = self.n_heads // self.n_kv_heads
        k, v = k.repeat_interleave(rep, dim=1), v.repeat_interleave(rep, dim=1)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return self.wo(y.transpose(1, 2).reshape(B, T, -1))


class Block(nn.Module):
    def __init__(self, args):
        super().__init__()
        self.attn_norm = nn.RMSNorm(args.dim, eps=args.norm_eps)
        self.attn = Attention(args)
        self.mlp_norm = nn.RMSNorm(args.dim, eps=args.norm_eps)
        self.w13 = nn.Linear(args.dim, 2 * args.hidden, bias=False)
        self.w2 = nn.Linear(args.hidden, args.dim, bias=False)

    def forward(self, x, cos, sin, mask, input_pos):
        x = x + self.attn(self.attn_norm(x), cos, sin, mask, input_pos)
        gate, up = self.w13(self.mlp_norm(x)).chunk(2, dim=-1)
        return x + self.w2(F.silu(gate) * up)


class Transformer(nn.Module):
    def __init__(self, args):
        super().__init__()
        self.args = args
        self.tok_embeddings = nn.Embedding(args.vocab_size, args.dim)
        self.layers = nn.ModuleList([Block(args) for _ in range(args.n_layers)])
        self.norm = nn.RMSNorm(args.dim, eps=args.norm_eps)
        self.output = nn.Linear(args.dim, args.vocab_size, bias=False)
        self.max_seq_len = 0

    def setup_caches(self, max_batch_size, max_seq_len):
        head_dim = self.args.dim // self.args.n_heads
        dtype, device = self.output.weight.dtype, self.output.weight.device
        for layer in self.layers:
            layer.attn.kv_cache = KVCache(max_batch_size, self.args.n_kv_heads, max_seq_len, head_dim, dtype, device)
        inv_freq = 1.0 / self.args.rope_base ** (torch.arange(0, head_dim, 2, device=device).float() / head_dim)
        angles = torch.outer(torch.arange(max_seq_len, device=device).float(), inv_freq)
        self.register_buffer("cos", angles.cos(), persistent=False)
        self.register_buffer("sin", angles.sin(), persistent=False)
        self.register_buffer("causal", torch.ones(max_seq_len, max_seq_len, dtype=torch.bool, device=device).tril(),
                             persistent=False)
        self.max_seq_len = max_seq_len

    def forward(self, idx, input_pos):
        if self.max_seq_len == 0:
            raise RuntimeError("call setup_caches() first")
        mask = self.causal[None, None, input_pos]
        cos, sin = self.cos[input_pos][:, None], self.sin[input_pos][:, None]
        x = self.tok_embeddings(idx)
        for layer in self.layers:
            x = layer(x, cos, sin, mask, input_pos)
        return self.output(self.norm(x)).float()
