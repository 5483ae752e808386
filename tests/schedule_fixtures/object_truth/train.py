from abc import ABC, abstractmethod

import numpy as np
import torch
import torch.nn as nn


class Sampler(ABC):
    @abstractmethod
    def weights(self):
        """One weight per timestep."""

    def sample(self, n, device):
        w = self.weights()
        p = w / np.sum(w)
        idx = np.random.choice(len(p), size=(n,), p=p)
        t = torch.from_numpy(idx).long().to(device)
        return t


class Uniform(Sampler):
    def __init__(self, steps):
        self._w = np.ones([steps])

    def weights(self):
        return self._w


def make_sampler(name, steps):
    if name == "uniform":
        return Uniform(steps)
    raise NotImplementedError(name)


class Trainer:
    def __init__(self, model, sampler=None):
        self.model = model
        self.sampler = sampler or Uniform(100)
        self.opt = torch.optim.SGD(model.parameters(), lr=0.1)

    def run(self, device):
        for step in range(10):
            x = torch.randn(2, 8).to(device)
            t = self.sampler.sample(2, device)
            loss = (self.model(x).sum(1) * t).mean()
            print(loss.item())
            loss.backward()
            self.opt.step()


def main():
    device = torch.device("cuda")
    model = nn.Linear(8, 8).to(device)
    Trainer(model, make_sampler("uniform", 1000)).run(device)


if __name__ == "__main__":
    main()
