"""Two-stage generation: a first model samples coarse tokens, a second
samples fine tokens from them, each in a decode loop of its own, one
after the other.  The first stage's loop is the step; the second stage's
loop decodes too -- it is no evaluation pass.

    python generate.py --steps 64
"""
import argparse

import torch
import torch.nn as nn


class TinyLM(nn.Module):
    def __init__(self, vocab=256, dim=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, x):
        return self.head(self.emb(x))


@torch.no_grad()
def stage_one(model, steps):
    x = torch.zeros(1, 1, dtype=torch.long).to("cuda")
    for n in range(steps):
        probs = torch.softmax(model(x[:, -1:])[0, -1], dim=-1)
        x = torch.cat((x, torch.multinomial(probs, num_samples=1)[None]), dim=1)
    return x.cpu().numpy()


@torch.no_grad()
def stage_two(model, coarse, per_token):
    y = torch.from_numpy(coarse).to("cuda")
    for n in range(coarse.shape[1] * per_token):
        probs = torch.softmax(model(y[:, -1:])[0, -1], dim=-1)
        y = torch.cat((y, torch.multinomial(probs, num_samples=1)[None]), dim=1)
    return y.cpu().numpy()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=16)
    args = p.parse_args()
    first = TinyLM().to("cuda")
    second = TinyLM().to("cuda")
    coarse = stage_one(first, args.steps)
    fine = stage_two(second, coarse, 2)
    print(fine.shape)


if __name__ == "__main__":
    main()
