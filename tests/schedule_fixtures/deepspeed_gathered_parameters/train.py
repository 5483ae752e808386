# deepspeed.zero.GatheredParameters in a job with a ZeRO-3 engine: entering
# it all-gathers the partitioned parameters it is given, and with a
# modifier_rank its exit broadcasts them from that rank; enabled=False
# gathers nothing.  Every parameter of the module the engine partitions
# carries ds_id: the else branch below never runs.
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


def main():
    parser = argparse.ArgumentParser()
    parser = deepspeed.add_config_arguments(parser)
    args = parser.parse_args()
    config = {
        "train_batch_size": 16,
        "train_micro_batch_size_per_gpu": 8,
        "zero_optimization": {"stage": 3},
        "optimizer": {"type": "Adam", "params": {"lr": 1e-3}},
    }
    net = Net()
    engine, _, _, _ = deepspeed.initialize(args=args, model=net, model_parameters=net.parameters(), config=config)
    device = torch.device("cuda", engine.local_rank)
    for step in range(100):
        x = torch.randn(8, 1024, device=device)
        loss = engine(x).sum()
        engine.backward(loss)
        engine.step()
    for name, p in net.named_parameters():
        with deepspeed.zero.GatheredParameters([p], modifier_rank=0):
            p.data.mul_(0.5)
    with deepspeed.zero.GatheredParameters(list(net.parameters()), enabled=False):
        print("done")
    saved = {}
    for name, p in net.named_parameters():
        if hasattr(p, "ds_id"):
            with deepspeed.zero.GatheredParameters([p]):
                saved[name] = p.data.cpu()
        else:
            saved[name] = p.cpu()
    torch.save(saved, "model.pt")


if __name__ == "__main__":
    main()
