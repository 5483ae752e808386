"""A small decoder-only LM (the whole prefix each call)."""
import torch
import torch.nn as nn


class TinyLM(nn.Module):
    def __init__(self, vocab_size=256, dim=64):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim)
        self.proj = nn.Linear(dim, dim)
        self.head = nn.Linear(dim, vocab_size, bias=False)

    def forward(self, tokens):
        return self.head(torch.relu(self.proj(self.emb(tokens))))
