"""A rotary table built lazily on the host (`if self._freqs is None:`) and
moved to the parameters' device on first use, stored back in its place:
the lazy start fills it once and only the move writes it after, so the
copy happens on the first forward only (frequency once).  A look-alike
whose table another method rebuilds on the host every token copies every
token."""
import torch
import torch.nn as nn


def build_freqs(dim, n):
    t = torch.arange(n).float()
    inv = 1.0 / (10000 ** (torch.arange(0, dim, 2).float() / dim))
    return torch.outer(t, inv)


class Model(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.out = nn.Linear(dim, vocab, bias=False)
        self.dim = dim
        self._freqs = None
        self._scale = None

    @property
    def device(self):
        return next(self.parameters()).device

    @property
    def freqs(self):
        if self._freqs is None:
            self._freqs = build_freqs(self.dim, 4096)
        if self._freqs.device != self.device:
            self._freqs = self._freqs.to(device=self.device)
        return self._freqs

    @property
    def scale(self):
        if self._scale is None:
            self._scale = torch.ones(self.dim // 2)
        if self._scale.device != self.device:
            self._scale = self._scale.to(device=self.device)
        return self._scale

    def reset(self):
        self._scale = torch.ones(self.dim // 2)

    def forward(self, tokens, pos):
        h = self.emb(tokens)
        f = self.freqs[pos:pos + 1] * self.scale
        h = h * torch.cat([f.cos(), f.sin()], dim=-1)
        return self.out(h).float()


def main():
    model = Model(256, 64).cuda()
    tokens = torch.zeros((2, 128), dtype=torch.long, device="cuda")
    for pos in range(1, 128):
        with torch.no_grad():
            logits = model(tokens[:, pos - 1:pos], pos)
        nxt = torch.argmax(logits[:, -1], dim=-1)
        tokens[:, pos] = nxt
        model.reset()
    print(tokens.tolist())


if __name__ == "__main__":
    main()
