from dataclasses import dataclass

import torch
import torch.nn as nn
from jsonargparse import CLI


@dataclass
class TrainArgs:
    max_steps: int = 10
    log_interval: int = 1


@dataclass
class EvalArgs:
    interval: int = 600
    initial_validation: bool = False
    final_validation: bool = True


def validate(model, x):
    return model(x).pow(2).mean()


def setup(lr: float = 0.1, train: TrainArgs = TrainArgs(max_steps=200), eval: EvalArgs = EvalArgs(interval=1000)):
    device = torch.device("cuda")
    model = nn.Linear(8, 1).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    x = torch.randn(4, 8)
    if eval.initial_validation:
        print(validate(model, x.to(device)).item())
    for step in range(1, train.max_steps + 1):
        batch = x.to(device)
        loss = model(batch).pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()
        if step % train.log_interval == 0:
            print(loss.item())
        if step % eval.interval == 0:
            val = validate(model, batch)
            print(val.item())
    if eval.final_validation:
        val = validate(model, x.to(device))
        print(val.item())


if __name__ == "__main__":
    CLI(setup)
