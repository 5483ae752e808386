"""A metric logger that takes its values as **kwargs and reads every
tensor among them with .item().  The job passes a Python float by name and
the per-term losses with **: a dict built by a comprehension over the
stacked terms, whose entries ecg does not list one by one (it reads the
comprehension once for all of them) but knows to be device tensors."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MetricLogger:
    def __init__(self):
        self.totals = {}
        self.counts = {}

    def update(self, **kwargs):
        for k, v in kwargs.items():
            if isinstance(v, torch.Tensor):
                v = v.item()
            assert isinstance(v, (float, int))
            self.totals[k] = self.totals.get(k, 0.0) + v
            self.counts[k] = self.counts.get(k, 0) + 1


def main():
    device = torch.device("cuda")
    model = nn.Linear(32, 4).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    logger = MetricLogger()
    names = ["ce", "l1", "l2"]
    for step in range(1000):
        x = torch.randn(8, 32).to(device)
        y = torch.randint(0, 4, (8,)).to(device)
        out = model(x)
        terms = torch.stack([F.cross_entropy(out, y), out.abs().mean(), out.pow(2).mean()])
        loss = terms.sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
        detached = terms.detach()
        parts = {k: v for k, v in zip(names, detached)}
        logger.update(lr=opt.param_groups[0]["lr"], **parts)


if __name__ == "__main__":
    main()
