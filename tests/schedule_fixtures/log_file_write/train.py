"""A regression net trained for a fixed number of steps; every step it
prints the loss, appends it to a text log file and appends the
targets' raw bytes to a binary file (data, not a log).

    python train.py
"""
import torch
import torch.nn as nn


def main():
    device = torch.device("cuda")
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1)).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    log_file = "log.txt"
    with open(log_file, "w") as f:
        pass
    for step in range(1000):
        x = torch.randn(128, 32, device=device)
        y = torch.randn(128, 1, device=device)
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step}: loss {loss.item():.4f}")
        with open(log_file, "a") as f:
            f.write(f"{step} train {loss.item():.6f}\n")
        with open("targets.bin", "ab") as g:
            g.write(y.cpu().numpy().tobytes())


if __name__ == "__main__":
    main()
