"""GPT pre-training with DistributedDataParallel.

    torchrun --standalone --nproc_per_node=8 train.py config/owt_124m.py --eval_interval=1000

The settings are the module-level names below; configurator.py overrides them
from a config file and --name=value arguments.
"""
import math
import os
import time
from contextlib import nullcontext

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler

from data import TokenChunks
from model import GPT, GPTConfig

# ---------------------------------------------------------------- settings
run_name = "gpt"
out_dir = "out"
data_dir = "data/shakespeare"
n_layer = 12
n_head = 12
n_embd = 768
block_size = 1024
vocab_size = 50304
dropout = 0.0
batch_size = 8
grad_accum = 8
max_steps = 5000
warmup_steps = 200
lr = 6e-4
min_lr = 6e-5
weight_decay = 0.1
clip = 1.0
log_interval = 10
eval_interval = 250
eval_batches = 40
save_interval = 1000
compile_model = True
compile_mode = "max-autotune"
seed = 1337
exec(open("configurator.py").read())
# -------------------------------------------------------------------------

dist.init_process_group("nccl")
rank = dist.get_rank()
world_size = dist.get_world_size()
local_rank = int(os.environ["LOCAL_RANK"])
device = torch.device("cuda", local_rank)
torch.cuda.set_device(device)
is_master = rank == 0
torch.manual_seed(seed + rank)
torch.backends.cuda.matmul.allow_tf32 = True
if is_master:
    os.makedirs(out_dir, exist_ok=True)

train_set = TokenChunks(os.path.join(data_dir, "train.bin"), block_size)
val_set = TokenChunks(os.path.join(data_dir, "val.bin"), block_size)
train_sampler = DistributedSampler(train_set, num_replicas=world_size, rank=rank, shuffle=True, seed=seed)
val_sampler = DistributedSampler(val_set, num_replicas=world_size, rank=rank, shuffle=False)
train_loader = DataLoader(train_set, batch_size=batch_size, sampler=train_sampler, num_workers=4,
                          pin_memory=True, drop_last=True)
val_loader = DataLoader(val_set, batch_size=batch_size, sampler=val_sampler, num_workers=4, pin_memory=True)
if is_master:
    print(f"{len(train_loader)} batches per epoch per rank, world size {world_size}")

gpt_config = GPTConfig(n_layer=n_layer, n_head=n_head, n_embd=n_embd, block_size=block_size,
                       vocab_size=vocab_size, dropout=dropout)
model = GPT(gpt_config)
model.to(device)
optimizer = model.configure_optimizers(weight_decay, lr, (0.9, 0.95))
if compile_model:
    model = torch.compile(model, mode=compile_mode)
model = DDP(model, device_ids=[local_rank])


def lr_at(step):
    if step < warmup_steps:
        return lr * (step + 1) / warmup_steps
    ratio = min(1.0, (step - warmup_steps) / (max_steps - warmup_steps))
    return min_lr + 0.5 * (1.0 + math.cos(math.pi * ratio)) * (lr - min_lr)


@torch.no_grad()
def evaluate():
    model.eval()
    totals = torch.zeros(2, device=device)
    for i, (x, y) in enumerate(val_loader):
        if i >= eval_batches:
            break
        x = x.to(device, non_blocking=True)
        y = y.to(device, non_blocking=True)
        with torch.autocast("cuda", dtype=torch.bfloat16):
            _, loss = model(x, y)
        totals[0] += loss
        totals[1] += 1
    dist.all_reduce(totals, op=dist.ReduceOp.SUM)
    model.train()
    return (totals[0] / totals[1]).item()


def forever(loader, sampler):
    epoch = 0
    while True:
        sampler.set_epoch(epoch)
        for batch in loader:
            yield batch
        epoch += 1


batches = forever(train_loader, train_sampler)
tokens_since_log = 0
t0 = time.time()
for step in range(max_steps + 1):
    lr_now = lr_at(step)
    for group in optimizer.param_groups:
        group["lr"] = lr_now

    if step % eval_interval == 0:
        val_loss = evaluate()
        if is_master:
            print(f"step {step}: val loss {val_loss:.4f}")
        if step > 0 and step % save_interval == 0 and is_master:
            ckpt = {"model": model.module.state_dict(), "optimizer": optimizer.state_dict(), "step": step}
            torch.save(ckpt, os.path.join(out_dir, f"{run_name}-{step}.pt"))
    if step == max_steps:
        break

    for micro in range(grad_accum):
        x, y = next(batches)
        x = x.to(device, non_blocking=True)
        y = y.to(device, non_blocking=True)
        tokens_since_log += x.numel()
        sync_ctx = model.no_sync() if micro < grad_accum - 1 else nullcontext()
        with sync_ctx:
            with torch.autocast("cuda", dtype=torch.bfloat16):
                _, loss = model(x, y)
            (loss / grad_accum).backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)

    if step % log_interval == 0:
        counts = torch.tensor([tokens_since_log], dtype=torch.float64, device=device)
        handle = dist.all_reduce(counts, op=dist.ReduceOp.SUM, async_op=True)
        lossf = loss.item()
        handle.wait()
        torch.cuda.synchronize()
        dt = time.time() - t0
        t0 = time.time()
        tokens_since_log = 0
        if is_master:
            print(f"step {step} | loss {lossf:.4f} | grad norm {grad_norm:.3f} | lr {lr_now:.2e} | {counts.item() / dt:,.0f} tok/s")

dist.destroy_process_group()
