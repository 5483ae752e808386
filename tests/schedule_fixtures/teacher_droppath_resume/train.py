"""A student/teacher pair under torchrun.  Each block's stochastic depth
is DropPath or nn.Identity, by a rate read from a tensor (not decided
here); there is no BatchNorm on either path, so has_batchnorms() is False
and the teacher is not wrapped in DDP.  A resume routine loads a
checkpoint read on the host into the device models and the optimizer."""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


class DropPath(nn.Module):
    def __init__(self, p=None):
        super().__init__()
        self.p = p

    def forward(self, x):
        if not self.training or self.p == 0.:
            return x
        keep = torch.rand(x.shape[0], 1, device=x.device) >= self.p
        return x * keep / (1 - self.p)


class Block(nn.Module):
    def __init__(self, dim, drop_path):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.fc = nn.Linear(dim, dim)
        self.drop_path = DropPath(drop_path) if drop_path > 0. else nn.Identity()

    def forward(self, x):
        return x + self.drop_path(self.fc(self.norm(x)))


class Net(nn.Module):
    def __init__(self, dim=64, depth=4, rate=0.1):
        super().__init__()
        dpr = [x.item() for x in torch.linspace(0, rate, depth)]
        self.blocks = nn.ModuleList([Block(dim, dpr[i]) for i in range(depth)])
        self.head = nn.Linear(dim, 10)

    def forward(self, x):
        for b in self.blocks:
            x = b(x)
        return self.head(x)


def has_batchnorms(model):
    bn_types = (nn.BatchNorm1d, nn.BatchNorm2d, nn.SyncBatchNorm)
    for name, module in model.named_modules():
        if isinstance(module, bn_types):
            return True
    return False


def restart_from_checkpoint(path, **kwargs):
    if not os.path.isfile(path):
        return
    checkpoint = torch.load(path, map_location="cpu")
    for key, value in kwargs.items():
        if key in checkpoint and value is not None:
            msg = value.load_state_dict(checkpoint[key])
            print("loaded {} with msg {}".format(key, msg))


def main():
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    student, teacher = Net().cuda(), Net(rate=0.).cuda()
    if has_batchnorms(student):
        student = nn.SyncBatchNorm.convert_sync_batchnorm(student)
        teacher = nn.SyncBatchNorm.convert_sync_batchnorm(teacher)
        teacher = DDP(teacher, device_ids=[local_rank])
        teacher_without_ddp = teacher.module
    else:
        teacher_without_ddp = teacher
    student = DDP(student, device_ids=[local_rank])
    teacher_without_ddp.load_state_dict(student.module.state_dict())
    opt = torch.optim.AdamW(student.parameters(), lr=1e-4)
    restart_from_checkpoint("checkpoint.pth", student=student, teacher=teacher_without_ddp, optimizer=opt)
    for step in range(100):
        x = torch.randn(32, 64, device="cuda")
        with torch.no_grad():
            t = teacher(x)
        loss = (student(x) - t).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(loss.item())


if __name__ == "__main__":
    main()
