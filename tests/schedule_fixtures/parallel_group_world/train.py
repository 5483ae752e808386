# The data-parallel degree of a DDP job that names its group's size: no
# launcher sets WORLD_SIZE; the script is started once per device and
# passes world_size=len(args.devices) to init_process_group, so DDP over
# the default group spans those processes (3 with three --devices).
import argparse

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

parser = argparse.ArgumentParser()
parser.add_argument("--devices", type=str, nargs="+", default=["cuda:0"])
parser.add_argument("--rank", type=int, default=0)
args = parser.parse_args()

dist.init_process_group(backend="nccl", init_method="tcp://localhost:23456",
                        world_size=len(args.devices), rank=args.rank)
torch.cuda.set_device(args.rank)
model = DDP(nn.Linear(32, 32).cuda())
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(100):
    loss = model(torch.randn(8, 32, device="cuda")).sum()
    loss.backward()
    opt.step()
    opt.zero_grad()
