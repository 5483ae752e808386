"""GPT with a mixture-of-experts MLP in every other block."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

from moe import MoELayer


@dataclass
class MoEConfig:
    vocab_size: int = 32000
    seq_len: int = 2048
    dim: int = 1024
    n_layer: int = 16
    n_head: int = 16
    n_experts: int = 64
    top_k: int = 2
    expert_hidden: int = 1408
    aux_weight: float = 0.01


class Attention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.n_head = cfg.n_head
        self.qkv = nn.Linear(cfg.dim, 3 * cfg.dim, bias=False)
        self.o = nn.Linear(cfg.dim, cfg.dim, bias=False)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.n_head, -1).permute(2, 0, 3, 1, 4)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.o(y.transpose(1, 2).reshape(B, T, C))


class DenseMLP(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.fc = nn.Linear(cfg.dim, 4 * cfg.dim, bias=False)
        self.proj = nn.Linear(4 * cfg.dim, cfg.dim, bias=False)

    def forward(self, x):
        return self.proj(F.gelu(self.fc(x))), None


class Block(nn.Module):
    def __init__(self, cfg, use_moe, ep_group):
        super().__init__()
        self.norm1 = nn.RMSNorm(cfg.dim)
        self.attn = Attention(cfg)
        self.norm2 = nn.RMSNorm(cfg.dim)
        if use_moe:
            self.mlp = MoELayer(cfg.dim, cfg.expert_hidden, cfg.n_experts, cfg.top_k, ep_group)
        else:
            self.mlp = DenseMLP(cfg)

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        h, aux = self.mlp(self.norm2(x))
        return x + h, aux


class MoEGPT(nn.Module):
    def __init__(self, cfg, ep_group):
        super().__init__()
        self.cfg = cfg
        self.embed = nn.Embedding(cfg.vocab_size, cfg.dim)
        self.blocks = nn.ModuleList([Block(cfg, i % 2 == 1, ep_group) for i in range(cfg.n_layer)])
        self.norm = nn.RMSNorm(cfg.dim)
        self.head = nn.Linear(cfg.dim, cfg.vocab_size, bias=False)

    def forward(self, idx, targets):
        x = self.embed(idx)
        aux_total = x.new_zeros(())
        for block in self.blocks:
            x, aux = block(x)
            if aux is not None:
                aux_total = aux_total + aux
        logits = self.head(self.norm(x))
        ce = F.cross_entropy(logits.flatten(0, 1).float(), targets.flatten())
        return ce, aux_total
