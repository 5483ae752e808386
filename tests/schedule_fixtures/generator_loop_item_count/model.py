"""A tiny denoiser and a sampler whose loops are generators of dicts."""
import time

import torch
import torch.nn as nn


class Denoiser(nn.Module):
    def __init__(self, ch=3, hidden=32):
        super().__init__()
        self.inp = nn.Conv2d(ch, hidden, 3, padding=1)
        self.out = nn.Conv2d(hidden, ch, 3, padding=1)

    def forward(self, x, t):
        return self.out(torch.relu(self.inp(x)))


class Sampler:
    def __init__(self, num_steps):
        self.num_steps = num_steps

    def sample_step(self, model, img, t):
        eps = model(img, t)
        return {"sample": img - 0.1 * eps, "eps": eps}

    def sample_progressive(self, model, shape, device):
        img = torch.randn(*shape, device=device)
        indices = list(range(self.num_steps))[::-1]
        for i in indices:
            t = torch.tensor([i] * shape[0], device=device)
            with torch.no_grad():
                out = self.sample_step(model, img, t)
                yield out
                img = out["sample"]

    def sample_loop(self, model, shape, device):
        final = None
        for out in self.sample_progressive(model, shape, device):
            final = out
        return final["sample"]

    def refine_progressive(self, model, img, device):
        for i in range(self.num_steps):
            t = torch.full((img.shape[0],), i, device=device)
            s = torch.tensor([i / self.num_steps], device=device)
            with torch.no_grad():
                img = self.sample_step(model, img * s, t)["sample"]
            yield img

    def refine_until(self, model, img, device, seconds):
        deadline = time.time() + seconds
        for img in self.refine_progressive(model, img, device):
            if time.time() > deadline:
                break
        return img
