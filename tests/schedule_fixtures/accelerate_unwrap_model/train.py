"""accelerate launch --multi_gpu --num_processes 2: after each epoch the
main process unwraps the prepared (DDP-wrapped) model with
accelerator.unwrap_model -- the module itself -- copies its parameters to
the host and runs a preview through it.  The unwrapped model's forward goes
through no DDP hook: no buffer broadcast, unlike the training forward."""
import torch
import torch.nn as nn
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset


def main():
    accelerator = Accelerator()
    model = nn.Sequential(nn.Linear(32, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, 1))
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    data = TensorDataset(torch.randn(256, 32), torch.randn(256, 1))
    loader = DataLoader(data, batch_size=8, shuffle=True)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for epoch in range(3):
        for x, y in loader:
            out = model(x)
            loss = nn.functional.mse_loss(out, y)
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
        if accelerator.is_main_process:
            net = accelerator.unwrap_model(model)
            saved = [p.detach().cpu() for p in net.parameters()]
            with torch.no_grad():
                preview = net(torch.randn(4, 32, device=accelerator.device))
            print(len(saved), preview.sum().item())


if __name__ == "__main__":
    main()
