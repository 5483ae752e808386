"""An average meter as in pytorch/examples' imagenet: it keeps whatever it
is given (device tensors here) and reads them when it is formatted,
reduced or compared."""
import torch
import torch.distributed as dist


class AverageMeter:
    def __init__(self, name, fmt=":f"):
        self.name = name
        self.fmt = fmt
        self.val = 0
        self.sum = 0
        self.count = 0
        self.avg = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count

    def all_reduce(self, device):
        total = torch.tensor([self.sum, self.count], dtype=torch.float32, device=device)
        dist.all_reduce(total)
        self.sum, self.count = total.tolist()

    def __str__(self):
        fmtstr = "{name} {val" + self.fmt + "} ({avg" + self.fmt + "})"
        return fmtstr.format(**self.__dict__)

    def header(self):
        return "{name}".format(**self.__dict__)
