"""A tiny denoiser and a sampler whose loop is a generator of dicts."""
import torch
import torch.nn as nn


class Denoiser(nn.Module):
    def __init__(self, ch=3, hidden=32):
        super().__init__()
        self.inp = nn.Conv2d(ch, hidden, 3, padding=1)
        self.out = nn.Conv2d(hidden, ch, 3, padding=1)

    def forward(self, x):
        return self.out(torch.relu(self.inp(x)))


class Sampler:
    def __init__(self, num_steps):
        self.num_steps = num_steps

    def sample_step(self, model, img):
        with torch.no_grad():
            eps = model(img)
        return {"sample": img - 0.1 * eps, "eps": eps}

    def sample_progressive(self, model, shape, device):
        img = torch.randn(*shape, device=device)
        for _ in range(self.num_steps):
            out = self.sample_step(model, img)
            yield out
            img = out["sample"]

    def sample_loop(self, model, shape, device):
        final = None
        for out in self.sample_progressive(model, shape, device):
            final = out
        return final["sample"]
