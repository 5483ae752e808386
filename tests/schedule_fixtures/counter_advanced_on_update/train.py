"""A loop over micro-batches that counts optimizer steps in a name of its
own, advanced only on the pass that ends an accumulation of 8, and tests
that count on the same pass: `global_step % 50 == 0 and is_update_step`
holds once every 50 optimizer steps, every 400 passes of the loop -- not
every 50 passes.

    python train.py
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ACCUM = 8
EVAL_EVERY = 50


def main():
    device = torch.device("cuda")
    data = TensorDataset(torch.randn(4096, 8), torch.randn(4096, 1))
    loader = DataLoader(data, batch_size=16)
    model = nn.Linear(8, 1).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    global_step = 0
    for i, (x, y) in enumerate(loader):
        is_update_step = (i + 1) % ACCUM == 0
        x = x.to(device)
        y = y.to(device)
        loss = ((model(x) - y) ** 2).mean() / ACCUM
        loss.backward()
        if is_update_step:
            opt.step()
            opt.zero_grad()
        if global_step % EVAL_EVERY == 0 and is_update_step:
            print(loss.item())
        if is_update_step:
            global_step += 1
        if global_step >= 1000:
            break


if __name__ == "__main__":
    main()
