"""torchrun DDP: the model is moved to its GPU and wrapped, and a resume
loads a checkpoint read onto the host (map_location="cpu") into the
unwrapped model (ddp.module): torch's Module.load_state_dict copies each
tensor into the device parameters.

    torchrun --nproc_per_node=2 train.py
"""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


def main():
    dist.init_process_group(backend="nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10)).cuda()
    model = DDP(model, device_ids=[local_rank])
    model_without_ddp = model.module
    if os.path.exists("ckpt.pth"):
        checkpoint = torch.load("ckpt.pth", map_location="cpu")
        model_without_ddp.load_state_dict(checkpoint["model"])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        x = torch.randn(16, 32, device="cuda")
        loss = model(x).square().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
