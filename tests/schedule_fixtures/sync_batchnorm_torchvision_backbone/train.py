# convert_sync_batchnorm also reaches the batch norms inside a torchvision
# backbone that ecg does not read: resnet18 holds BatchNorm2d layers, so
# each call of it all-gathers (how many layers: not read here).  A resnet
# built with norm_layer=GroupNorm holds none, nor does vgg11 (no _bn).
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torchvision.models as models
from torch.nn.parallel import DistributedDataParallel as DDP


class Encoders(nn.Module):
    def __init__(self):
        super().__init__()
        self.bn_net = models.resnet18(num_classes=16)
        self.gn_net = models.resnet18(num_classes=16, norm_layer=lambda c: nn.GroupNorm(4, c))
        self.plain = models.vgg11(num_classes=16)

    def forward(self, x):
        a = self.bn_net(x)
        b = self.gn_net(x)
        c = self.plain(x)
        return a + b + c


def main():
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    model = nn.SyncBatchNorm.convert_sync_batchnorm(Encoders()).cuda()
    model = DDP(model, device_ids=[local_rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        x = torch.randn(8, 3, 64, 64, device="cuda")
        loss = model(x).pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
