"""A sampler whose set_timesteps takes device=None by default and ends with
.to(device): called without a device, the timesteps stay on the CPU, so
the sampling loop's `if t > 0` and the nonzero over them read nothing from
the GPU.  Only the model, the noise and the final .cpu() touch the device."""
import numpy as np
import torch
import torch.nn as nn


class Sampler:
    def __init__(self, num_train_timesteps=1000):
        self.num_train_timesteps = num_train_timesteps
        self.timesteps = torch.arange(num_train_timesteps)

    def set_timesteps(self, num_inference_steps, device=None):
        steps = np.arange(0, num_inference_steps)[::-1].copy()
        self.timesteps = torch.from_numpy(steps).to(device)

    def previous(self, t):
        index = (self.timesteps == t).nonzero(as_tuple=True)[0][0]
        return index

    def step(self, out, t, x):
        self.previous(t)
        if t > 0:
            x = x - 0.01 * out
        return x


def main():
    device = torch.device("cuda")
    model = nn.Conv2d(3, 3, 3, padding=1).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    sampler = Sampler()
    for epoch in range(10):
        for step in range(100):
            x = torch.randn(4, 3, 16, 16, device=device)
            loss = (model(x) - x).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            sampler.set_timesteps(50)
            x = torch.randn(4, 3, 16, 16, device=device)
            for t in sampler.timesteps:
                out = model(x)
                x = sampler.step(out, t, x)
            images = x.cpu().numpy()
        print(images.mean())


if __name__ == "__main__":
    main()
