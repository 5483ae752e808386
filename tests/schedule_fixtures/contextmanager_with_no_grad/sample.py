"""Samples tokens from a small LM inside a repository context manager whose
body is `with torch.inference_mode(), torch.no_grad(): yield`: the block
of the caller's `with` runs without gradients, as Python runs it inside
the generator's `with`.

    python sample.py --steps 100
"""
import argparse
import contextlib

import torch
import torch.nn as nn


class TinyLM(nn.Module):
    def __init__(self, vocab=256, dim=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, x):
        return self.head(self.emb(x))


@contextlib.contextmanager
def _inference():
    with torch.inference_mode(), torch.no_grad():
        yield


def sample(model, steps):
    x = torch.zeros(1, 1, dtype=torch.long).to("cuda")
    with _inference():
        for n in range(steps):
            logits = model(x[:, -1:])
            probs = torch.softmax(logits[0, -1], dim=-1)
            nxt = torch.multinomial(probs, num_samples=1)
            x = torch.cat((x, nxt[None]), dim=1)
    return x.cpu().tolist()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=10)
    args = p.parse_args()
    model = TinyLM().to("cuda")
    print(sample(model, args.steps))


if __name__ == "__main__":
    main()
