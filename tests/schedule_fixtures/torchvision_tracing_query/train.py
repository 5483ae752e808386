"""A helper that takes another path under tracing (as detection code does
with torchvision._is_tracing()): the job runs eagerly, so that path is
never taken and its synchronize never runs.

    python train.py
"""
import torch
import torch.nn as nn
import torchvision


def prepare(x, device):
    if torchvision._is_tracing():
        torch.cuda.synchronize()
        return x
    return x.to(device)


def main():
    device = torch.device("cuda")
    model = nn.Linear(8, 2).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    data = torch.randn(256, 8)
    for step in range(50):
        x = prepare(data[step * 4:(step + 1) * 4], device)
        loss = model(x).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
