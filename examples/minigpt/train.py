"""Train MiniGPT on one GPU or with DDP (torchrun --nproc_per_node=N train.py)."""

import argparse
import os
import time

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from data import make_loader
from model import MiniGPT, ModelConfig


def get_args():
    p = argparse.ArgumentParser()
    p.add_argument("--data", default="data/train.bin")
    p.add_argument("--batch-size", type=int, default=16)
    p.add_argument("--n-layer", type=int, default=6)
    p.add_argument("--max-iters", type=int, default=2000)
    p.add_argument("--grad-accum", type=int, default=4)
    p.add_argument("--eval-interval", type=int, default=250)
    p.add_argument("--log-interval", type=int, default=10)
    p.add_argument("--lr", type=float, default=6e-4)
    p.add_argument("--compile", action="store_true")
    return p.parse_args()


@torch.no_grad()
def evaluate(model, loader, device, iters=20):
    model.eval()
    losses = torch.zeros(iters)
    for k, (x, y) in zip(range(iters), loader):
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
        _, loss = model(x, y)
        losses[k] = loss.item()
    model.train()
    return losses.mean()


def main():
    args = get_args()
    ddp = int(os.environ.get("RANK", -1)) != -1
    if ddp:
        dist.init_process_group(backend="nccl")
        local_rank = int(os.environ["LOCAL_RANK"])
        device = f"cuda:{local_rank}"
        torch.cuda.set_device(device)
    else:
        device = "cuda"

    cfg = ModelConfig(n_layer=args.n_layer)
    model = MiniGPT(cfg).to(device)
    if args.compile:
        model = torch.compile(model)
    if ddp:
        model = DDP(model, device_ids=[local_rank])
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.1)
    scaler = torch.cuda.amp.GradScaler()
    loader = make_loader(args.data, cfg.block_size, args.batch_size)
    batches = iter(loader)

    t0 = time.time()
    for it in range(args.max_iters):
        if it % args.eval_interval == 0:
            val = evaluate(model, loader, device)
            print(f"iter {it}: val loss {val:.4f}")
        for micro in range(args.grad_accum):
            x, y = next(batches)
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            if ddp:
                model.require_backward_grad_sync = micro == args.grad_accum - 1
            with torch.autocast(device_type="cuda", dtype=torch.bfloat16):
                _, loss = model(x, y)
                loss = loss / args.grad_accum
            scaler.scale(loss).backward()
        scaler.unscale_(opt)
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.step(opt)
        scaler.update()
        opt.zero_grad(set_to_none=True)
        if it % args.log_interval == 0:
            dt = time.time() - t0
            t0 = time.time()
            print(f"iter {it}: loss {loss.item() * args.grad_accum:.4f}, {dt * 1000:.0f} ms")

    if ddp:
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
