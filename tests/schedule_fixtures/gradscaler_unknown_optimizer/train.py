# An optimizer from a library's factory that ecg does not read, stepped
# through an enabled GradScaler (and one through a disabled one).
import torch
import torch.nn as nn
from someoptimlib import create_optimizer


def main():
    device = torch.device("cuda")
    model = nn.Linear(16, 4).to(device)
    optimizer = create_optimizer(model, "lamb", lr=1e-3)
    scaler = torch.amp.GradScaler("cuda")
    off = torch.amp.GradScaler("cuda", enabled=False)
    for step in range(100):
        x = torch.randn(8, 16, device=device)
        with torch.autocast("cuda", dtype=torch.float16):
            loss = model(x).pow(2).mean()
        optimizer.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        off.step(optimizer)


if __name__ == "__main__":
    main()
