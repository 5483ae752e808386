"""Pipeline-parallel GPT training (GPipe schedule), optionally replicated
across data-parallel groups.

    torchrun --nproc_per_node=8 train.py --pp 4 --micro-batches 8
"""
import argparse
import os
import time

import torch
import torch.distributed as dist
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler

from data import TokenChunks
from model import GPTConfig, build_stage
from pipeline import allreduce_grads, clip_grad_norm_pipeline, gpipe_step, setup_groups


def get_args():
    p = argparse.ArgumentParser()
    p.add_argument("--data", default="data/pile/train.bin")
    p.add_argument("--pp", type=int, default=4)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--micro-batches", type=int, default=8)
    p.add_argument("--seq-len", type=int, default=1024)
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--lr", type=float, default=2e-4)
    p.add_argument("--clip", type=float, default=1.0)
    p.add_argument("--log-interval", type=int, default=10)
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args()


def main():
    args = get_args()
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    device = torch.device("cuda", local_rank)
    torch.cuda.set_device(device)
    ctx = setup_groups(args.pp)

    cfg = GPTConfig(seq_len=args.seq_len)
    stage_model = build_stage(cfg, ctx.stage, ctx.n_stages).to(device)
    n_params = sum(p.numel() for p in stage_model.parameters())
    print(f"rank {dist.get_rank()}: stage {ctx.stage}/{ctx.n_stages}, {n_params / 1e6:.1f}M parameters")
    optimizer = torch.optim.AdamW(stage_model.parameters(), lr=args.lr, weight_decay=0.1, fused=True)

    # every stage of a pipeline reads the same batches: stage 0 uses the
    # tokens, the last stage the labels
    dataset = TokenChunks(args.data, args.seq_len)
    sampler = DistributedSampler(dataset, num_replicas=ctx.dp_size, rank=ctx.dp_rank, shuffle=True, seed=args.seed)
    loader = DataLoader(dataset, batch_size=args.batch_size, sampler=sampler, num_workers=4, pin_memory=True,
                        drop_last=True)
    act_shape = (args.batch_size // args.micro_batches, args.seq_len, cfg.n_embd)

    step = 0
    t0 = time.time()
    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        for tokens, labels in loader:
            micro = list(zip(tokens.chunk(args.micro_batches), labels.chunk(args.micro_batches)))
            loss = gpipe_step(stage_model, micro, ctx, act_shape, device)
            if ctx.dp_size > 1:
                allreduce_grads(stage_model, ctx.dp_group)
            grad_norm = clip_grad_norm_pipeline(stage_model, args.clip, ctx.pp_group)
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
            step += 1

            if step % args.log_interval == 0:
                dist.broadcast(loss, src=ctx.last_rank, group=ctx.pp_group)
                torch.cuda.synchronize()
                dt = (time.time() - t0) / args.log_interval
                t0 = time.time()
                if ctx.is_first and ctx.dp_rank == 0:
                    print(f"step {step} loss {loss.item():.4f} grad norm {grad_norm.item():.3f} {dt:.2f} s/step")

    if ctx.is_last and ctx.dp_rank == 0:
        torch.save(stage_model.state_dict(), f"stage{ctx.stage}.pt")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
