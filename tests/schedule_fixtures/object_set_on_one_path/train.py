import torch
import torch.nn as nn
from accelerate import Accelerator


class Scorer:
    def __init__(self, device):
        self.device = device

    def score(self, x):
        return x.detach().float().cpu()


class Trainer:
    def __init__(self, calculate_score=True):
        self.accelerator = Accelerator()
        self.model = nn.Linear(16, 4)
        self.opt = torch.optim.Adam(self.model.parameters(), lr=1e-3)
        self.model, self.opt = self.accelerator.prepare(self.model, self.opt)
        self.calculate_score = calculate_score and self.accelerator.is_main_process
        if self.calculate_score:
            self.scorer = Scorer(self.accelerator.device)

    def train(self, num_steps):
        for step in range(num_steps):
            x = torch.randn(8, 16, device=self.accelerator.device)
            loss = self.model(x).pow(2).mean()
            self.accelerator.backward(loss)
            self.opt.step()
            self.opt.zero_grad()
            if self.calculate_score:
                print(self.scorer.score(loss))


def main():
    Trainer().train(1000)


if __name__ == "__main__":
    main()
