# weight_norm and spectral_norm hand back the layer they are given,
# reparametrized in place.  spectral_norm registers its power-iteration
# vectors (weight_u, weight_v) as buffers; weight_norm adds parameters
# only.  So under DDP (broadcast_buffers by default) the critic holding
# spectral-normed layers broadcasts its buffers before each forward with
# gradients, the weight-normed generator does not.
import os
import torch
import torch.nn as nn
import torch.distributed as dist
from torch.nn.utils import spectral_norm, weight_norm
from torch.nn.parallel import DistributedDataParallel as DDP


class Gen(nn.Module):
    def __init__(self):
        super().__init__()
        self.convs = nn.ModuleList([weight_norm(nn.Conv1d(4, 4, 3, padding=1)) for _ in range(3)])

    def forward(self, x):
        for c in self.convs:
            x = c(x)
        return x


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.convs = nn.ModuleList([spectral_norm(nn.Conv1d(4, 4, 3, padding=1)) for _ in range(2)])

    def forward(self, x):
        for c in self.convs:
            x = c(x)
        return x.mean()


def main():
    dist.init_process_group("nccl")
    rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(rank)
    gen = DDP(Gen().cuda(), device_ids=[rank])
    critic = DDP(Critic().cuda(), device_ids=[rank])
    opt_g = torch.optim.Adam(gen.parameters())
    opt_c = torch.optim.Adam(critic.parameters())
    for step in range(1000):
        x = torch.randn(8, 4, 64).cuda()
        fake = gen(x)
        loss_c = critic(fake.detach())
        opt_c.zero_grad()
        loss_c.backward()
        opt_c.step()
        loss_g = -critic(fake)
        opt_g.zero_grad()
        loss_g.backward()
        opt_g.step()


if __name__ == "__main__":
    main()
