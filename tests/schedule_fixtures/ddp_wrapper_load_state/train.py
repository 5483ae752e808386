"""torchrun DDP with automatic resume: a checkpoint read onto the host
(map_location="cpu") is loaded into the DDP wrapper itself.  DDP defines no
load_state_dict of its own: nn.Module's copies each entry (keys under
"module.") into the wrapped module's tensors -- on the GPU for the model,
on the host for the CPU probe.

    torchrun --nproc_per_node=2 train.py
"""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


def main():
    dist.init_process_group(backend="gloo")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10)).cuda(local_rank)
    model = DDP(model, device_ids=[local_rank])
    probe = DDP(nn.Linear(32, 2))
    if os.path.isfile("checkpoint.pth"):
        ckpt = torch.load("checkpoint.pth", map_location="cpu")
        model.load_state_dict(ckpt["model"])
        probe.load_state_dict(ckpt["probe"])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        x = torch.randn(16, 32, device="cuda")
        loss = model(x).square().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    if dist.get_rank() == 0:
        torch.save({"model": model.state_dict(), "probe": probe.state_dict()}, "checkpoint.pth")


if __name__ == "__main__":
    main()
