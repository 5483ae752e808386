# Every eval_interval steps: evaluate, then, when the validation loss
# improved, save a checkpoint and export the weights -- the export's
# device reads are checkpoint work, not evaluation.
import struct

import torch
import torch.nn as nn

eval_interval = 100
max_iters = 1000


def export(model, path):
    with open(path, "wb") as f:
        d = model.weight.detach().cpu().view(-1).numpy()
        f.write(struct.pack(f"{len(d)}f", *d))


@torch.no_grad()
def estimate_loss(model, data):
    model.eval()
    losses = torch.zeros(10)
    for k in range(10):
        x, y = data()
        losses[k] = nn.functional.mse_loss(model(x), y).item()
    model.train()
    return losses.mean()


def get_batch():
    return torch.randn(16, 8, device="cuda"), torch.randn(16, 4, device="cuda")


def main():
    model = nn.Linear(8, 4).cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    best = 1e9
    for it in range(max_iters):
        if it % eval_interval == 0:
            val = estimate_loss(model, get_batch)
            if val < best:
                best = val
                torch.save(model.state_dict(), "ckpt.pt")
                export(model, "model.bin")
        x, y = get_batch()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)


if __name__ == "__main__":
    main()
