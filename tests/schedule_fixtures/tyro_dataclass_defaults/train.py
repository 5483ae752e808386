import torch
import torch.nn as nn
import tyro
from dataclasses import dataclass


@dataclass
class Args:
    steps: int = 100
    log_every: int = 10
    target_loss: float = None
    cuda: bool = True


def main():
    args = tyro.cli(Args)
    device = torch.device("cuda")
    model = nn.Linear(8, 1).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(args.steps):
        x = torch.randn(4, 8, device=device)
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % args.log_every == 0:
            print(loss.item())
        if args.target_loss is not None and loss < args.target_loss:
            break


if __name__ == "__main__":
    main()
