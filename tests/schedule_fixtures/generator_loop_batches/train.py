"""A language model trained from a generator that packs token rows on the
host and copies each batch to the device before yielding it; the training
loop takes a batch with next() at the end of each micro-step.

    python train.py
"""
import torch
import torch.nn as nn


def batches(B, T, device):
    cpu_buf = torch.empty(B, T + 1, dtype=torch.long)
    gpu_buf = torch.empty(B, T + 1, dtype=torch.long, device=device)
    while True:
        for row in range(B):
            cpu_buf[row] = torch.randint(0, 256, (T + 1,))
        gpu_buf.copy_(cpu_buf)
        yield gpu_buf[:, :-1], gpu_buf[:, 1:]


def main():
    device = torch.device("cuda")
    model = nn.Sequential(nn.Embedding(256, 64), nn.Linear(64, 256)).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    loader = batches(8, 128, device)
    x, y = next(loader)
    for step in range(1000):
        for micro in range(4):
            logits = model(x)
            loss = nn.functional.cross_entropy(logits.view(-1, 256), y.reshape(-1)) / 4
            loss.backward()
            x, y = next(loader)
        opt.step()
        opt.zero_grad(set_to_none=True)


if __name__ == "__main__":
    main()
