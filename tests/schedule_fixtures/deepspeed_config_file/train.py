import argparse

import deepspeed
import torch
import torch.nn as nn
from torch.utils.data import TensorDataset


class Regressor(nn.Module):
    def __init__(self, width=128):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(16, width), nn.GELU(), nn.Linear(width, 1))

    def forward(self, x):
        return self.body(x)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--local_rank", type=int, default=-1)
    parser.add_argument("--epochs", type=int, default=2)
    parser = deepspeed.add_config_arguments(parser)
    args = parser.parse_args()
    data = TensorDataset(torch.randn(2048, 16), torch.randn(2048, 1))
    engine, _, loader, _ = deepspeed.initialize(args=args, model=Regressor(), training_data=data)
    half = engine.fp16_enabled()
    for epoch in range(args.epochs):
        for x, y in loader:
            x = x.to(engine.local_rank)
            y = y.to(engine.local_rank)
            if half:
                x, y = x.half(), y.half()
            loss = nn.functional.mse_loss(engine(x), y)
            engine.backward(loss)
            engine.step()
            if engine.bfloat16_enabled():
                print(loss.item())


if __name__ == "__main__":
    main()
