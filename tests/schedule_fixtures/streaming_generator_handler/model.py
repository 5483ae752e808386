"""A small decoder-only LM (the whole prefix each call, no KV cache)."""
import torch
import torch.nn as nn


class TinyLM(nn.Module):
    def __init__(self, vocab_size=256, dim=128, n_layer=2):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim)
        self.layers = nn.ModuleList([nn.Linear(dim, dim) for _ in range(n_layer)])
        self.head = nn.Linear(dim, vocab_size, bias=False)

    def forward(self, tokens):
        h = self.emb(tokens)
        for layer in self.layers:
            h = torch.relu(layer(h))
        return self.head(h)
