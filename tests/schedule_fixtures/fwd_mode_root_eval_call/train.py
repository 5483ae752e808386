"""A model whose forward takes a flag (is_train=True): the training step
calls it with the default, an evaluation every 10 steps calls it with
is_train=False from another function.  Each mode takes its own branch and
copies a host tensor to the device there: the eval branch's copy runs at
the evaluation's call (4 batches every 10 steps), not every step.

    python train.py
"""
import torch
import torch.nn as nn


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 4)

    def forward(self, x, is_train=True):
        if is_train:
            h = torch.zeros(x.size(0), 4).to(x.device)
        else:
            h = torch.full((x.size(0), 4), 0.5).to(x.device)
        return self.lin(x) + h


def evaluate(model, batches):
    total = 0.0
    for x in batches:
        out = model(x, is_train=False)
        total += out.sum()
    return total


def main():
    model = Decoder().cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    val = [torch.randn(16, 8, device="cuda") for _ in range(4)]
    for step in range(100):
        x = torch.randn(16, 8, device="cuda")
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 0:
            model.eval()
            with torch.no_grad():
                total = evaluate(model, val)
            model.train()


if __name__ == "__main__":
    main()
