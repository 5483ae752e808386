"""FSDP with fp16 and FSDP's ShardedGradScaler (torchrun, 2 processes).
Each step unscales the gradients before clipping them: ShardedGradScaler
.unscale_ all-reduces found_inf across the ranks.  step() then reads
found_inf on the host.  A second scaler built disabled does nothing."""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp.sharded_grad_scaler import ShardedGradScaler


def main(steps=1000):
    dist.init_process_group("nccl")
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    model = FSDP(nn.Linear(64, 64).cuda())
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    scaler = ShardedGradScaler()
    off = ShardedGradScaler(enabled=False)
    for step in range(steps):
        x = torch.randn(8, 64, device="cuda")
        with torch.autocast("cuda", dtype=torch.float16):
            loss = model(x).pow(2).mean()
        opt.zero_grad()
        scaler.scale(loss).backward()
        scaler.unscale_(opt)
        off.unscale_(opt)
        model.clip_grad_norm_(1.0)
        scaler.step(opt)
        scaler.update()


if __name__ == "__main__":
    main()
