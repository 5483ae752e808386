import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


class TwoViews(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(10, 5)

    def forward(self, views):
        return self.net(torch.cat(views))


def main():
    dist.init_process_group(backend="nccl")
    rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(rank)
    model = TwoViews().cuda()
    ddp_model = DDP(model, device_ids=[rank])
    opt = torch.optim.SGD(ddp_model.parameters(), lr=0.01)
    for step in range(100):
        views = [torch.randn(20, 10), torch.randn(20, 10)]
        out = ddp_model(views)
        loss = out.pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            probe = ddp_model([torch.randn(4, 10, device=rank)])
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
