import torch
import torch.nn as nn
from torch import optim


class Lars(optim.Optimizer):
    def __init__(self, params, lr, momentum=0.9):
        defaults = dict(lr=lr, momentum=momentum)
        super().__init__(params, defaults)

    @torch.no_grad()
    def step(self):
        for g in self.param_groups:
            for p in g["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if "mu" not in state:
                    state["mu"] = torch.zeros_like(p)
                state["mu"].mul_(g["momentum"]).add_(p.grad)
                p.add_(state["mu"], alpha=-g["lr"])


class Plain(optim.Optimizer):
    def __init__(self, params, lr):
        super().__init__(params, dict(lr=lr))

    def load_state_dict(self, state_dict):
        self.saved = state_dict

    @torch.no_grad()
    def step(self):
        for g in self.param_groups:
            for p in g["params"]:
                p.add_(p.grad, alpha=-g["lr"])


def main():
    model = nn.Linear(8, 8).cuda()
    head = nn.Linear(8, 2).cuda()
    optimizer = Lars(model.parameters(), lr=0.1)
    other = Plain(head.parameters(), lr=0.1)
    ckpt = torch.load("checkpoint.pth", map_location="cpu")
    optimizer.load_state_dict(ckpt["optimizer"])
    other.load_state_dict(ckpt["other"])
    for step in range(100):
        x = torch.randn(4, 8, device="cuda")
        loss = head(model(x)).sum()
        loss.backward()
        optimizer.step()
        other.step()
        optimizer.zero_grad()
        other.zero_grad()
    torch.save(model.state_dict(), "model.pth")


if __name__ == "__main__":
    main()
