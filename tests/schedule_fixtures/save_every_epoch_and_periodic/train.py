"""A checkpoint helper called twice per epoch: the latest checkpoint
every epoch, and a numbered one every 20 epochs.  The helper's
torch.save of the device state runs every epoch (and once more every 20):
its row is the every-epoch one, not the periodic one."""
import torch
import torch.nn as nn


def save_on_master(state, path):
    torch.save(state, path)


def main(epochs=100, steps=50, saveckp_freq=20):
    device = torch.device("cuda")
    model = nn.Linear(16, 4).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(epochs):
        for step in range(steps):
            loss = model(torch.randn(8, 16, device=device)).square().mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        state = {"model": model.state_dict(), "epoch": epoch}
        save_on_master(state, "checkpoint.pth")
        if saveckp_freq and epoch % saveckp_freq == 0:
            save_on_master(state, f"checkpoint{epoch:04}.pth")


if __name__ == "__main__":
    main()
