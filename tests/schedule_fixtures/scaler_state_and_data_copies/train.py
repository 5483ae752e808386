"""A mixed-precision training job: the checkpoint reads the GradScaler's
state (an enabled scaler's state_dict() reads its scale with .item()), the
logged average is put back on the device with loss.new([...]), and the
label-smoothing loss (floats only) is moved to the device for nothing."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class SmoothCE(nn.Module):
    def __init__(self, smoothing=0.1):
        super().__init__()
        self.smoothing = smoothing
        self.confidence = 1.0 - smoothing

    def forward(self, x, target):
        logprobs = F.log_softmax(x, dim=-1)
        nll = -logprobs.gather(dim=-1, index=target.unsqueeze(1)).squeeze(1)
        return (self.confidence * nll - self.smoothing * logprobs.mean(dim=-1)).mean()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=100)
    args = parser.parse_args()
    device = torch.device("cuda:0")
    model = nn.Linear(16, 4).to(device)
    criterion = SmoothCE(0.1).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler("cuda")
    total = 0.0
    for step in range(args.steps):
        x = torch.randn(8, 16, device=device)
        y = torch.randint(0, 4, (8,), device=device)
        with torch.autocast("cuda"):
            loss = criterion(model(x), y)
        optimizer.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        total += loss.item()
        if step % 10 == 0:
            avg = loss.new([total / (step + 1)])
            print(avg)
    state = {"model": model.state_dict(), "scaler": scaler.state_dict()}
    torch.save(state, "checkpoint.pt")


if __name__ == "__main__":
    main()
