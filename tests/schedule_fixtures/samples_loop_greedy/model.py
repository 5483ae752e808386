"""A small GPT-like LM with a generate() helper (greedy or sampled)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LM(nn.Module):
    def __init__(self, vocab_size=256, dim=64, block_size=128):
        super().__init__()
        self.block_size = block_size
        self.emb = nn.Embedding(vocab_size, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        self.head = nn.Linear(dim, vocab_size, bias=False)

    def forward(self, idx):
        return self.head(self.mlp(self.emb(idx)))

    @torch.no_grad()
    def generate(self, idx, max_new_tokens, temperature=1.0, eos=None):
        for _ in range(max_new_tokens):
            cond = idx[:, -self.block_size:]
            logits = self(cond)[:, -1, :]
            if temperature == 0.0:
                nxt = torch.argmax(logits, dim=-1, keepdim=True)
            else:
                nxt = torch.multinomial(F.softmax(logits / temperature, dim=-1), num_samples=1)
            idx = torch.cat((idx, nxt), dim=1)
            if eos is not None and nxt.item() == eos:
                break
        return idx
