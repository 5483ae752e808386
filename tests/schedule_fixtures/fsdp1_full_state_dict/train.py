# state_dict() of FSDP1 units under the default FULL_STATE_DICT unshards
# every unit (an all-gather over the ranks), also when it is called on a
# plain container holding the wrapped modules; under
# `with FSDP.state_dict_type(m, LOCAL_STATE_DICT)` each rank keeps its own
# shards and nothing is gathered.
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


def export(nets, path):
    sd = nets.state_dict()
    if dist.get_rank() == 0:
        torch.save(sd, path)


def save_shards(model, path):
    with FSDP.state_dict_type(model, StateDictType.LOCAL_STATE_DICT):
        sd = model.state_dict()
    torch.save(sd, path)


def main():
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    nets = nn.ModuleDict({"student": FSDP(Net().cuda(), device_id=local_rank)})
    opt = torch.optim.AdamW(nets.parameters(), lr=1e-3)
    for step in range(1000):
        x = torch.randn(16, 32, device="cuda")
        loss = nets["student"](x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 100 == 0:
            export(nets, "full.pt")
            save_shards(nets["student"], "shard.pt")


if __name__ == "__main__":
    main()
