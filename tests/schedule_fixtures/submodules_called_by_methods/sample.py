"""A model the job builds and names, whose forward is never called: the
job calls its methods, and they call its submodules -- a text encoder a
builder bound to a local named `model`, and a denoiser held as
self.model.  Both are the model's parts called from job code; each
forward's copies are the job's (the denoiser's per sampling step).

    python sample.py --steps 10
"""
import argparse

import torch
import torch.nn as nn


class TextEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(1000, 32)

    def forward(self, ids):
        tokens = torch.tensor(ids).to("cuda")
        return self.emb(tokens)


class Denoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(32, 32)

    def forward(self, x, t, context):
        freqs = torch.arange(16, dtype=torch.float32).to(t.device)
        return self.proj(x) + context.mean(0) + freqs.sum()


def build_encoder():
    model = TextEncoder()
    return model


class Diffusion(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = Denoiser()
        self.cond_stage_model = build_encoder()

    def get_conditioning(self, ids):
        return self.cond_stage_model(ids)

    def apply_model(self, x, t, c):
        return self.model(x, t, c)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=10)
    args = p.parse_args()
    model = Diffusion()
    model.cuda()
    with torch.no_grad():
        c = model.get_conditioning([1, 2, 3])
        x = torch.randn(4, 32, device="cuda")
        for i in range(args.steps):
            t = torch.full((4,), i, device="cuda")
            x = model.apply_model(x, t, c)
        print(x.cpu().tolist())


if __name__ == "__main__":
    main()
