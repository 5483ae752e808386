# A class of the repository that extends a library's module class (timm's
# VisionTransformer, a module package's class) is a module even when it
# defines no forward of its own: its submodules and buffers are the job's.
# The head put in place of the library's holds a BatchNorm1d, so DDP
# (broadcast_buffers=True) broadcasts its running statistics before each
# training forward.
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from timm.models.vision_transformer import VisionTransformer
from torch.nn.parallel import DistributedDataParallel as DDP


class Backbone(VisionTransformer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.head = nn.Sequential(nn.Linear(self.embed_dim, 64), nn.BatchNorm1d(64))


def main():
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    model = Backbone(patch_size=16, embed_dim=192, depth=4, num_heads=3).cuda()
    model = DDP(model, device_ids=[local_rank])
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for step in range(100):
        x = torch.randn(8, 3, 224, 224, device="cuda")
        loss = model(x).pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
