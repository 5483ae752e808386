# A DeepSpeed engine built without training_data starts its throughput
# timer in its own forward (a torch.cuda.synchronize, on by default); the
# module it wraps, called directly (a GAN's discriminator, a no_grad probe),
# is no engine call: no timer there.
import argparse

import deepspeed
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(32, 64)
        self.fc2 = nn.Linear(64, 10)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def main():
    parser = argparse.ArgumentParser()
    parser = deepspeed.add_config_arguments(parser)
    args = parser.parse_args()
    config = {
        "train_batch_size": 16,
        "zero_optimization": {"stage": 0},
        "optimizer": {"type": "Adam", "params": {"lr": 1e-3}},
    }
    net = Net()
    engine, _, _, _ = deepspeed.initialize(args=args, model=net, model_parameters=net.parameters(), config=config)
    device = torch.device("cuda", engine.local_rank)
    for step in range(100):
        x = torch.randn(8, 32, device=device)
        loss = engine(x).sum()
        engine.backward(loss)
        engine.step()
        with torch.no_grad():
            probe = net(x)
        print(probe.mean().item())


if __name__ == "__main__":
    main()
