"""A small causal LM and its embedding head."""
import torch
import torch.nn as nn


class LM(nn.Module):
    def __init__(self, vocab_size=1000, dim=128):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim)
        self.body = nn.Sequential(nn.Linear(dim, dim), nn.Tanh(), nn.Linear(dim, dim))
        self.head = nn.Linear(dim, vocab_size, bias=False)

    def hidden(self, ids):
        return self.body(self.emb(ids))

    def forward(self, ids):
        return self.head(self.hidden(ids))
