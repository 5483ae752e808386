"""A GPT cut into pipeline stages: stage 0 owns the embeddings, the last
stage the final norm and the LM head, every stage a contiguous run of blocks."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class GPTConfig:
    vocab_size: int = 50304
    seq_len: int = 1024
    n_layer: int = 24
    n_head: int = 16
    n_embd: int = 1024


class Block(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.n_head = cfg.n_head
        self.ln1 = nn.LayerNorm(cfg.n_embd)
        self.qkv = nn.Linear(cfg.n_embd, 3 * cfg.n_embd)
        self.proj = nn.Linear(cfg.n_embd, cfg.n_embd)
        self.ln2 = nn.LayerNorm(cfg.n_embd)
        self.fc = nn.Linear(cfg.n_embd, 4 * cfg.n_embd)
        self.fc_out = nn.Linear(4 * cfg.n_embd, cfg.n_embd)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(B, T, 3, self.n_head, C // self.n_head).permute(2, 0, 3, 1, 4)
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(a.transpose(1, 2).reshape(B, T, C))
        return x + self.fc_out(F.gelu(self.fc(self.ln2(x))))


class PipelineStage(nn.Module):
    def __init__(self, cfg, first_layer, last_layer, is_first, is_last):
        super().__init__()
        self.is_first, self.is_last = is_first, is_last
        if is_first:
            self.wte = nn.Embedding(cfg.vocab_size, cfg.n_embd)
            self.wpe = nn.Embedding(cfg.seq_len, cfg.n_embd)
        self.blocks = nn.ModuleList([Block(cfg) for _ in range(first_layer, last_layer)])
        if is_last:
            self.ln_f = nn.LayerNorm(cfg.n_embd)
            self.head = nn.Linear(cfg.n_embd, cfg.vocab_size, bias=False)

    def forward(self, x):
        if self.is_first:
            pos = torch.arange(x.size(1), device=x.device)
            x = self.wte(x) + self.wpe(pos)
        for block in self.blocks:
            x = block(x)
        if self.is_last:
            return self.head(self.ln_f(x))
        return x


def build_stage(cfg, stage, n_stages):
    per_stage = cfg.n_layer // n_stages
    first = stage * per_stage
    last = cfg.n_layer if stage == n_stages - 1 else first + per_stage
    return PipelineStage(cfg, first, last, stage == 0, stage == n_stages - 1)
