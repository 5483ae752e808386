"""timm's AverageMeter kept for the loss (a Python float, from .item())
and for the gradient norm (the device tensor clip_grad_norm_ returns):
formatting the norm meter's val and avg reads the GPU, the loss meter's
does not.

    python train.py
"""
import torch
import torch.nn as nn
from timm.utils import AverageMeter


def main():
    device = torch.device("cuda")
    model = nn.Linear(64, 10).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loss_meter = AverageMeter()
    norm_meter = AverageMeter()
    for idx in range(1000):
        x = torch.randn(32, 64, device=device)
        loss = model(x).logsumexp(dim=1).mean()
        opt.zero_grad()
        loss.backward()
        grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        loss_meter.update(loss.item(), x.size(0))
        norm_meter.update(grad_norm)
        if idx % 10 == 0:
            print(f"loss {loss_meter.val:.4f} ({loss_meter.avg:.4f})\t"
                  f"grad_norm {norm_meter.val:.4f} ({norm_meter.avg:.4f})")


if __name__ == "__main__":
    main()
