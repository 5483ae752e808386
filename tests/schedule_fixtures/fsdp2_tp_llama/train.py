"""Llama pre-training with FSDP2 (fully_shard) x tensor parallel, activation checkpointing.

    torchrun --nnodes=4 --nproc_per_node=8 train.py --tp 8 --data /data/slimpajama
"""
import argparse
import math
import os
import time

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler

from data import PackedTokens
from llama import ModelArgs, Transformer, apply_fsdp, build_mesh


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--data", default="data/slimpajama-tok")
    p.add_argument("--tp", type=int, default=8)
    p.add_argument("--seq-len", type=int, default=2048)
    p.add_argument("--local-batch", type=int, default=2)
    p.add_argument("--steps", type=int, default=100000)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--warmup", type=int, default=2000)
    p.add_argument("--log-interval", type=int, default=10)
    p.add_argument("--no-ac", dest="activation_checkpointing", action="store_false")
    return p.parse_args()


def cosine_lr(step, args):
    if step < args.warmup:
        return args.lr * (step + 1) / args.warmup
    t = (step - args.warmup) / max(1, args.steps - args.warmup)
    return 0.1 * args.lr + 0.45 * args.lr * (1 + math.cos(math.pi * t))


def main():
    args = parse_args()
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    device = torch.device("cuda", local_rank)
    torch.cuda.set_device(device)

    mesh = build_mesh(dist.get_world_size(), args.tp)
    dp_mesh, tp_mesh = mesh["dp"], mesh["tp"]
    dp_group = dp_mesh.get_group()
    dp_rank, dp_size = dp_mesh.get_local_rank(), dp_mesh.size()
    is_master = dist.get_rank() == 0

    margs = ModelArgs(max_seq_len=args.seq_len, activation_checkpointing=args.activation_checkpointing)
    with torch.device("meta"):
        model = Transformer(margs, tp_mesh.get_group())
    apply_fsdp(model, dp_mesh)
    model.to_empty(device=device)
    model.init_weights()
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, betas=(0.9, 0.95), weight_decay=0.1, fused=True)

    dataset = PackedTokens(args.data, args.seq_len)
    sampler = DistributedSampler(dataset, num_replicas=dp_size, rank=dp_rank, shuffle=True, seed=0)
    loader = DataLoader(dataset, batch_size=args.local_batch, sampler=sampler, num_workers=4, pin_memory=True,
                        drop_last=True)
    if is_master:
        print(f"dp={dp_size} tp={args.tp}: {len(dataset)} rows, {len(loader)} steps per epoch")

    step, epoch = 0, 0
    t0 = time.perf_counter()
    while step < args.steps:
        sampler.set_epoch(epoch)
        for batch in loader:
            tokens = batch["input_ids"].to(device, non_blocking=True)
            labels = batch["labels"].to(device, non_blocking=True)
            for group in optimizer.param_groups:
                group["lr"] = cosine_lr(step, args)

            logits = model(tokens)
            loss = F.cross_entropy(logits.flatten(0, 1), labels.flatten(0, 1))
            loss.backward()
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
            step += 1

            if step % args.log_interval == 0:
                avg = loss.detach().clone()
                dist.all_reduce(avg, op=dist.ReduceOp.AVG, group=dp_group)
                loss_val = avg.item()
                torch.cuda.synchronize()
                elapsed = time.perf_counter() - t0
                t0 = time.perf_counter()
                if not math.isfinite(loss_val):
                    raise RuntimeError(f"loss is {loss_val} at step {step}")
                if is_master:
                    mem = torch.cuda.max_memory_allocated() / 2**30
                    print(f"step {step} loss {loss_val:.4f} {elapsed / args.log_interval:.3f} s/step {mem:.1f} GiB")
            if step >= args.steps:
                break
        epoch += 1
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
