"""A decode loop run on the host: the model is built and kept on the CPU,
the prompt made there, and the forward moves its rotated queries with
.to(x.device) -- x is a host tensor, so nothing moves; the host cache
written with them is a host write."""
import torch
import torch.nn as nn


def rotate(x, freqs, device):
    out = (x.float() * freqs).type_as(x)
    return out.to(device)


class Attention(nn.Module):
    def __init__(self, dim, max_len, batch):
        super().__init__()
        self.wq = nn.Linear(dim, dim, bias=False)
        self.wo = nn.Linear(dim, dim, bias=False)
        self.cache = torch.zeros((batch, max_len, dim))

    def forward(self, x, pos, freqs):
        q = self.wq(x)
        q = rotate(q, freqs, device=x.device)
        self.cache[:, pos:pos + 1] = q
        keys = self.cache[:, :pos + 1]
        return self.wo(keys.mean(dim=1, keepdim=True))


class Model(nn.Module):
    def __init__(self, vocab, dim, max_len, batch):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.attn = Attention(dim, max_len, batch)
        self.out = nn.Linear(dim, vocab, bias=False)
        self.freqs = torch.ones(max_len, dim)

    def forward(self, tokens, pos):
        h = self.emb(tokens)
        h = h + self.attn(h, pos, self.freqs[pos:pos + 1])
        return self.out(h).float()


def generate(model, tokens, total):
    for pos in range(1, total):
        with torch.no_grad():
            logits = model(tokens[:, pos - 1:pos], pos)
        probs = torch.softmax(logits[:, -1], dim=-1)
        nxt = torch.multinomial(probs, num_samples=1)
        tokens[:, pos] = nxt.reshape(-1)
    return tokens.tolist()


if __name__ == '__main__':
    use_gpu = False
    device = 'cuda' if torch.cuda.is_available() and use_gpu else 'cpu'
    model = Model(100, 32, 64, 2).to(device)
    tokens = torch.zeros((2, 64), dtype=torch.long, device=device)
    print(generate(model, tokens, 64))
