import torch
import torch.nn as nn
from torch.utils.tensorboard import SummaryWriter


def main():
    device = torch.device("cuda")
    model = nn.Linear(8, 1).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    writer = SummaryWriter("runs/x")
    for step in range(100):
        x = torch.randn(4, 8, device=device)
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        writer.add_scalar("loss", loss.item(), step)
        writer.add_scalar("lr", opt.param_groups[0]["lr"], step)
    writer.close()


if __name__ == "__main__":
    main()
