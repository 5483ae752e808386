import torch
import torch.nn as nn
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset


def cycle(dl):
    while True:
        for data in dl:
            yield data


def main():
    accelerator = Accelerator()
    data = TensorDataset(torch.randn(256, 32))
    dl = DataLoader(data, batch_size=8, shuffle=True, pin_memory=True)
    dl = accelerator.prepare(dl)  # a DataLoader alone: nothing wrapped
    batches = cycle(dl)
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    opt, model = accelerator.prepare(opt, model)  # the model second
    for step in range(100):
        (x,) = next(batches)
        x = x.to(accelerator.device)
        loss = model(x).mean()
        accelerator.backward(loss)
        opt.step()
        opt.zero_grad()
        print(loss.item())


if __name__ == "__main__":
    main()
