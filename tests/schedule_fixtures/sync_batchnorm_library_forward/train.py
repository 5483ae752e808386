# Encoders whose forward is their library base's (timm's VisionTransformer,
# extended by the repository without a forward of its own) get a head
# Sequential with batch norms put in place of the library's.  After
# convert_sync_batchnorm each call of an encoder in training all-gathers
# the head's batch statistics inside the library's forward: stated at the
# encoder's call (how many layers: not read).  The momentum encoder runs
# under no_grad but in training mode: it synchronises too.  The plain
# Linear probe holds no batch norm: its call gathers nothing.
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

import vits


class Siamese(nn.Module):
    def __init__(self, make_encoder):
        super().__init__()
        self.encoder = make_encoder(num_classes=64)
        self.momentum_encoder = make_encoder(num_classes=64)
        hidden = self.encoder.head.weight.shape[1]
        del self.encoder.head, self.momentum_encoder.head
        self.encoder.head = nn.Sequential(nn.Linear(hidden, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, 16))
        self.momentum_encoder.head = nn.Sequential(nn.Linear(hidden, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, 16))
        self.probe = nn.Linear(16, 16)

    def forward(self, x):
        q = self.encoder(x)
        with torch.no_grad():
            k = self.momentum_encoder(x)
        return (self.probe(q) - k).pow(2).mean()


def main():
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    model = Siamese(vits.__dict__["vit_tiny"])
    model = nn.SyncBatchNorm.convert_sync_batchnorm(model).cuda()
    model = DDP(model, device_ids=[local_rank])
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for step in range(100):
        x = torch.randn(8, 3, 224, 224, device="cuda")
        loss = model(x)
        loss.backward()
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
