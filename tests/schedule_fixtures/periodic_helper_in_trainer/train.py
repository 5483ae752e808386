import torch
import torch.nn as nn


def divisible_by(numer, denom):
    return (numer % denom) == 0


class Trainer:
    def __init__(self, model, save_every=1000, log_every=10):
        self.model = model.cuda()
        self.opt = torch.optim.Adam(self.model.parameters(), lr=1e-3)
        self.save_every = save_every
        self.log_every = log_every
        self.step = 0

    def save(self):
        torch.save(self.model.state_dict(), "model.pt")

    def train(self, num_steps):
        while self.step < num_steps:
            x = torch.randn(16, 32, device="cuda")
            loss = self.model(x).pow(2).mean()
            loss.backward()
            self.opt.step()
            self.opt.zero_grad()
            self.step += 1
            if self.step % self.log_every == 0:
                print(loss.item())
            if self.step != 0 and divisible_by(self.step, self.save_every):
                self.save()


class Block(nn.Module):
    def __init__(self, n):
        super().__init__()
        layers = []
        for i in range(n):
            layers.append(nn.Linear(32, 32))
            if divisible_by(i, 2):
                layers.append(nn.ReLU())
        self.net = nn.Sequential(*layers, nn.Linear(32, 1))

    def forward(self, x):
        return self.net(x)


def main():
    trainer = Trainer(Block(3))
    trainer.train(100000)


if __name__ == "__main__":
    main()
