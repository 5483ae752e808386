"""Cross-encoder: a BERT-style encoder over "[CLS] query [SEP] passage [SEP]"
with a relevance head on the masked mean of the last layer."""
from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class EncoderConfig:
    vocab_size: int = 30522
    max_len: int = 512
    dim: int = 768
    n_layers: int = 12
    n_heads: int = 12
    dropout: float = 0.1


class EncoderLayer(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.attn = nn.MultiheadAttention(cfg.dim, cfg.n_heads, dropout=cfg.dropout, batch_first=True)
        self.norm1 = nn.LayerNorm(cfg.dim)
        self.ff = nn.Sequential(nn.Linear(cfg.dim, 4 * cfg.dim), nn.GELU(), nn.Linear(4 * cfg.dim, cfg.dim))
        self.norm2 = nn.LayerNorm(cfg.dim)
        self.drop = nn.Dropout(cfg.dropout)

    def forward(self, x, pad_mask):
        a, _ = self.attn(x, x, x, key_padding_mask=pad_mask, need_weights=False)
        x = self.norm1(x + self.drop(a))
        return self.norm2(x + self.drop(self.ff(x)))


class CrossEncoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.tok = nn.Embedding(cfg.vocab_size, cfg.dim)
        self.pos = nn.Embedding(cfg.max_len, cfg.dim)
        self.seg = nn.Embedding(2, cfg.dim)
        self.norm = nn.LayerNorm(cfg.dim)
        self.layers = nn.ModuleList([EncoderLayer(cfg) for _ in range(cfg.n_layers)])
        self.head = nn.Linear(cfg.dim, 1)

    def forward(self, input_ids, token_type_ids, attention_mask):
        if input_ids.shape != attention_mask.shape:
            raise ValueError(f"ids {tuple(input_ids.shape)} vs mask {tuple(attention_mask.shape)}")
        pos = torch.arange(input_ids.size(1), device=input_ids.device)
        x = self.norm(self.tok(input_ids) + self.pos(pos) + self.seg(token_type_ids))
        pad = attention_mask == 0
        for layer in self.layers:
            x = layer(x, pad)
        keep = attention_mask.unsqueeze(-1).bool()
        pooled = torch.where(keep, x, torch.zeros_like(x)).sum(dim=1) / attention_mask.sum(dim=1, keepdim=True)
        return self.head(pooled).squeeze(-1)
