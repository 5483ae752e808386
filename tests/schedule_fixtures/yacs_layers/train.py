import argparse

import torch
import torch.distributed as dist
import torch.nn as nn

from config import get_config


def parse_option():
    p = argparse.ArgumentParser()
    p.add_argument("--cfg", type=str, required=True)
    p.add_argument("--opts", default=None, nargs="+")
    p.add_argument("--batch-size", type=int)
    p.add_argument("--throughput", action="store_true")
    args, unparsed = p.parse_known_args()
    return args, get_config(args)


class CenterLoss(nn.Module):
    def __init__(self, sync):
        super().__init__()
        self.sync = sync

    def forward(self, x):
        if self.sync:
            c = x.mean(0)
            dist.all_reduce(c)
            x = x - c
        return x.pow(2).mean()


@torch.no_grad()
def throughput(model, width):
    x = torch.randn(64, width).cuda()
    for _ in range(30):
        model(x)
    torch.cuda.synchronize()
    print(model(x).sum().item())


def main(config):
    dist.init_process_group("nccl")
    width = config.MODEL.WIDTH
    model = nn.Sequential(*[nn.Linear(width, width) for _ in range(config.MODEL.DEPTH)]).cuda()
    if config.THROUGHPUT_MODE:
        throughput(model, width)
        return
    loss_fn = CenterLoss(config.LOSS.SYNC)
    opt = torch.optim.SGD(model.parameters(), lr=config.TRAIN.LR)
    for step in range(config.TRAIN.STEPS):
        x = torch.randn(config.DATA.BATCH_SIZE, width).cuda()
        loss = loss_fn(model(x))
        loss.backward()
        opt.step()
        opt.zero_grad()
        if step % config.PRINT_FREQ == 0:
            print(loss.item())


if __name__ == "__main__":
    args, config = parse_option()
    main(config)
