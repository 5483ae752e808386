import torch
import torch.nn as nn
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset


def main():
    accelerator = Accelerator()
    weight = torch.ones(1).cuda()
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1))
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    with accelerator.main_process_first():  # a barrier with several processes
        data = TensorDataset(torch.randn(256, 32), torch.randn(256, 1))
    loader = DataLoader(data, batch_size=8, shuffle=True)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for x, y in loader:
        out = model(x)
        loss = nn.functional.mse_loss(out, y) * weight
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
        avg = accelerator.gather(loss.detach()).mean()  # all_gather with several processes
        print(avg.item())
    accelerator.wait_for_everyone()  # a barrier with several processes


if __name__ == "__main__":
    main()
