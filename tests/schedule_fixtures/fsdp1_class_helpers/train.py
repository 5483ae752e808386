# FSDP (the FSDP1 class) wraps the model; its static helpers, called on the
# class with the model as first argument, are not wraps: FSDP.fsdp_modules
# lists the units, FSDP.state_dict_type is a context manager.
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp import StateDictType


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(32, 64)
        self.fc2 = nn.Linear(64, 8)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def units(model):
    return FSDP.fsdp_modules(model)


def save(model, path):
    with FSDP.state_dict_type(model, StateDictType.LOCAL_STATE_DICT):
        sd = model.state_dict()
    torch.save(sd, path)


def main():
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    model = FSDP(Net().cuda(), device_id=local_rank)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    n_units = len(units(model))
    for step in range(100):
        x = torch.randn(16, 32, device="cuda")
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    save(model, "ckpt.pt")
    print(n_units)


if __name__ == "__main__":
    main()
