import torch
import torch.nn as nn


class Evaluator:
    def __init__(self, model):
        self.model = model
        self.stats_loaded = False
        self.calls = 0

    def load_stats(self):
        feats = self.model(torch.randn(64, 16, device="cuda"))
        self.ref = feats.mean(0).cpu()
        self.stats_loaded = True

    def count(self):
        self.calls += 1

    def score(self):
        if not self.stats_loaded:
            self.load_stats()
        if self.calls >= 0:
            self.count()
        feats = self.model(torch.randn(64, 16, device="cuda"))
        return (feats.mean(0).cpu() - self.ref).abs().sum().item()


def main():
    model = nn.Linear(16, 4).cuda()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    evaluator = Evaluator(model)
    for step in range(1, 10001):
        loss = model(torch.randn(8, 16, device="cuda")).pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()
        if step % 1000 == 0:
            with torch.no_grad():
                print(evaluator.score())


if __name__ == "__main__":
    main()
