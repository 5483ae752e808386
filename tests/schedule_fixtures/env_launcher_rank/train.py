# llm.c-style setup under torchrun: ddp is read from RANK, the device is
# f'cuda:{LOCAL_RANK}', and the writers and the sampler are off by argv.
import argparse
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

parser = argparse.ArgumentParser()
parser.add_argument('--write_tensors', type=int, default=1)
parser.add_argument('--sample_every', type=int, default=0)
parser.add_argument('--steps', type=int, default=100)
args = parser.parse_args()

ddp = int(os.environ.get('RANK', -1)) != -1
if ddp:
    dist.init_process_group(backend='nccl')
    rank = int(os.environ['RANK'])
    local_rank = int(os.environ['LOCAL_RANK'])
    device = f'cuda:{local_rank}'
    torch.cuda.set_device(device)
    master_process = rank == 0
else:
    local_rank = 0
    master_process = True
    device = 'cuda'

model = nn.Linear(16, 4).to(device)
if ddp:
    model = DDP(model, device_ids=[local_rank])
opt = torch.optim.SGD(model.parameters(), lr=0.1)

if master_process and args.write_tensors:
    w = model.module.weight.detach().cpu()
    print(w.sum())

for step in range(args.steps):
    x = torch.randn(32, 16).to(device)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if (args.sample_every > 0 and step % args.sample_every == 0) and master_process:
        print(model(x).argmax().tolist())
    if device == 'cuda':
        torch.cuda.synchronize()
    print(f'step {step} loss {loss.item():.4f}')
