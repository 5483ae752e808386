"""A noise scheduler keeps its table on the CPU and moves it to the
samples' device on use, storing the moved table back in its place: only
the first call copies; later calls find it on the device (frequency
once).  A look-alike whose table another method rebuilds on the host every
step copies every step."""
import torch
import torch.nn as nn


class Scheduler:
    def __init__(self, steps=1000):
        self.alphas_cumprod = torch.cumprod(1.0 - torch.linspace(1e-4, 0.02, steps), dim=0)

    def add_noise(self, x, noise, t):
        self.alphas_cumprod = self.alphas_cumprod.to(device=x.device)
        a = self.alphas_cumprod[t] ** 0.5
        return a[:, None] * x + (1 - a[:, None]) * noise


class Rebuilt:
    def __init__(self):
        self.scale = torch.ones(8)

    def refresh(self):
        self.scale = torch.rand(8)

    def apply(self, x):
        self.scale = self.scale.to(x.device)
        return x * self.scale


def main():
    device = torch.device("cuda")
    model = nn.Linear(8, 8).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    sched = Scheduler()
    rebuilt = Rebuilt()
    for step in range(1000):
        x = torch.randn(4, 8, device=device)
        noise = torch.randn_like(x)
        t = torch.randint(0, 1000, (4,), device=device)
        noisy = sched.add_noise(x, noise, t)
        rebuilt.refresh()
        noisy = rebuilt.apply(noisy)
        loss = (model(noisy) - noise).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
