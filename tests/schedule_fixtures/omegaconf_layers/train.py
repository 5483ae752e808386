import argparse

import torch
import torch.distributed as dist
import torch.nn as nn
from omegaconf import OmegaConf

from configs import default_config


def get_args():
    p = argparse.ArgumentParser()
    p.add_argument("--config-file", default="")
    p.add_argument("opts", default=None, nargs=argparse.REMAINDER)
    return p.parse_args()


class CenterLoss(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.centering = cfg.train.centering
        self.sync_center = cfg.loss.sync_center

    def forward(self, x):
        if self.centering == "sinkhorn_knopp":
            q = x.exp().sum()
            dist.all_reduce(q)
            x = x / q
        if self.sync_center:
            c = x.mean(0)
            dist.all_reduce(c)
            x = x - c
        return x.pow(2).mean()


def main():
    args = get_args()
    cfg = OmegaConf.merge(OmegaConf.create(default_config), OmegaConf.load(args.config_file),
                          OmegaConf.from_cli(args.opts))
    dist.init_process_group("nccl")
    width = cfg.model.width
    model = nn.Sequential(*[nn.Linear(width, width) for _ in range(cfg.model.depth)]).cuda()
    loss_fn = CenterLoss(cfg)
    opt = torch.optim.SGD(model.parameters(), lr=cfg.optim.lr)
    for step in range(cfg.train.steps):
        x = torch.randn(8, width).cuda()
        loss = loss_fn(model(x))
        loss.backward()
        opt.step()
        opt.zero_grad()
        if step % cfg.train.log_every == 0:
            print(loss.item())


if __name__ == "__main__":
    main()
