# tensorboard's SummaryWriter.add_scalar makes numpy of the tensor it is
# given: a device loss is read on the host by the logging call itself.
# That read is the logging's work, wherever the call stands (here at the
# end of each epoch, under no periodic guard).
import torch
import torch.nn as nn
from torch.utils.tensorboard import SummaryWriter


def train(model, opt, writer):
    for epoch in range(10):
        for i in range(100):
            x = torch.randn(8, 16, device="cuda")
            loss = model(x).pow(2).mean()
            loss.backward()
            opt.step()
            opt.zero_grad()
        writer.add_scalar("train/loss", loss.detach(), epoch)
        writer.add_scalar("train/lr", opt.param_groups[0]["lr"], epoch)


def main():
    model = nn.Linear(16, 4).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    train(model, opt, SummaryWriter("runs"))


if __name__ == "__main__":
    main()
