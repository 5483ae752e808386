import torch
import torch.nn as nn
from torch.utils.tensorboard import SummaryWriter


class Logger(SummaryWriter):
    def __init__(self, logdir):
        super(Logger, self).__init__(logdir)

    def log_training(self, loss, grad_norm, step):
        self.add_scalar("training.loss", loss, step)
        self.add_scalar("grad.norm", grad_norm, step)


def main():
    model = nn.Linear(16, 4).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    logger = Logger("logs")
    for step in range(1000):
        x = torch.randn(8, 16).cuda()
        loss = model(x).pow(2).mean()
        loss.backward()
        grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        opt.zero_grad()
        logger.log_training(loss.item(), grad_norm, step)


if __name__ == "__main__":
    main()
