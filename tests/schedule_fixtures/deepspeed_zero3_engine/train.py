# A DeepSpeed engine at ZeRO stage 3 (fp16): its forward all-gathers the
# partitioned parameters (in training and in an evaluation alike), its
# backward gathers them again, reduce-scatters the gradients and
# synchronizes the reduction stream, its step all-reduces the overflow flag
# and the norm (and reads the flag on the host); building its optimizer
# waits at a barrier.  The evaluation runs once before the epoch loop and
# again in it: the epoch loop's call is the row.  fc1 (1M weights) is
# released after use and gathered again; the biases persist (gathered
# after each step).
import argparse

import deepspeed
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(1024, 1024)
        self.fc2 = nn.Linear(1024, 10)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def evaluate(engine, device):
    engine.eval()
    total = 0
    for i in range(4):
        x = torch.randn(8, 1024, device=device)
        with torch.no_grad():
            total += engine(x).sum().float()
    return total.item()


def main():
    parser = argparse.ArgumentParser()
    parser = deepspeed.add_config_arguments(parser)
    args = parser.parse_args()
    config = {
        "train_batch_size": 16,
        "train_micro_batch_size_per_gpu": 8,
        "fp16": {"enabled": True},
        "zero_optimization": {"stage": 3, "overlap_comm": True},
    }
    net = Net()
    optimizer = torch.optim.AdamW(net.parameters(), lr=1e-3)
    engine, optimizer, _, _ = deepspeed.initialize(args=args, model=net, optimizer=optimizer, config=config)
    device = torch.device("cuda", engine.local_rank)
    print(evaluate(engine, device))
    for epoch in range(3):
        engine.train()
        for step in range(100):
            x = torch.randn(8, 1024, device=device)
            loss = engine(x).sum()
            engine.backward(loss)
            engine.step()
        print(evaluate(engine, device))


if __name__ == "__main__":
    main()
