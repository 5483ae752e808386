import argparse

import deepspeed
import torch
import torch.nn as nn
from torch.utils.data import TensorDataset


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(32, 64)
        self.fc2 = nn.Linear(64, 10)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser = deepspeed.add_config_arguments(parser)
    args = parser.parse_args()
    config = {
        "train_batch_size": 32,
        "fp16": {"enabled": True, "loss_scale": 0},
        "zero_optimization": {"stage": 0},
        "optimizer": {"type": "Adam", "params": {"lr": 1e-3}},
    }
    data = TensorDataset(torch.randn(1024, 32), torch.randint(0, 10, (1024,)))
    engine, _, loader, _ = deepspeed.initialize(args=args, model=Net(), training_data=data, config=config)
    dtype = torch.half if engine.fp16_enabled() else torch.float
    device = torch.device("cuda", engine.local_rank)
    for epoch in range(args.epochs):
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = nn.functional.cross_entropy(engine(x.to(dtype)), y)
            engine.backward(loss)
            engine.step()
            if engine.bfloat16_enabled():
                print(loss.item())
    if args.deepspeed:
        print(float(loss))


if __name__ == "__main__":
    main()
