# Blocks guarded by a flag of the object: one turns its own flag off and
# runs once (the first step), one is turned back on every step and runs
# every step, one lazily initialises on first use.
import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=0.01)
        self.need_sync = True
        self.initialized = False
        self.dirty = False
        self.stats = torch.zeros(4, device="cuda")

    def warm_up_streams(self):
        if self.need_sync:
            torch.cuda.synchronize()
            self.need_sync = False

    def lazy_init(self):
        if not self.initialized:
            self.scale = self.stats.sum().item()
            self.initialized = True

    def flush(self):
        if self.dirty:
            print(self.stats.max().item())
            self.dirty = False

    def step(self, x):
        self.lazy_init()
        loss = self.model(x).pow(2).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.warm_up_streams()
        self.dirty = True
        self.flush()


def main():
    model = nn.Linear(16, 1).cuda()
    trainer = Trainer(model)
    for it in range(100):
        x = torch.randn(8, 16, device="cuda")
        trainer.step(x)


if __name__ == "__main__":
    main()
