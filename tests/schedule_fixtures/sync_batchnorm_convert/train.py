# convert_sync_batchnorm replaces each batch norm under the model by a
# SyncBatchNorm: in training, with more than one process, each call of
# one all-gathers the batch statistics.  A batch norm of a model that was
# not converted synchronises nothing.  A Sequential called from a second
# line all-gathers there too.
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(16, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Linear(32, 8))
        self.bn = nn.BatchNorm1d(8, affine=False)

    def forward(self, x):
        h = self.body(x)
        g = self.body(x.flip(0))
        return self.bn(h + g)


class Aux(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 16)
        self.norm = nn.BatchNorm1d(16)

    def forward(self, x):
        return self.norm(self.fc(x))


def main():
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    model = nn.SyncBatchNorm.convert_sync_batchnorm(Net()).cuda()
    model = DDP(model, device_ids=[local_rank])
    aux = Aux().cuda()
    opt = torch.optim.SGD(list(model.parameters()) + list(aux.parameters()), lr=0.1)
    for step in range(100):
        x = torch.randn(8, 16, device="cuda")
        loss = model(aux(x)).pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
