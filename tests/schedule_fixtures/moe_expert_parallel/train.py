"""Mixture-of-experts LM training: experts sharded over the GPUs of a node
(expert parallelism), everything else replicated (data parallelism).

    torchrun --nnodes=2 --nproc_per_node=8 train.py --ep 8
"""
import argparse
import os
import time

import numpy as np
import torch
import torch.distributed as dist
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.distributed import DistributedSampler

from model import MoEConfig, MoEGPT


class Windows(Dataset):
    def __init__(self, path, seq_len):
        self.tokens = np.load(path, mmap_mode="r")
        self.seq_len = seq_len

    def __len__(self):
        return (len(self.tokens) - 1) // self.seq_len

    def __getitem__(self, i):
        w = torch.from_numpy(np.asarray(self.tokens[i * self.seq_len:(i + 1) * self.seq_len + 1], dtype=np.int64))
        return w[:-1], w[1:]


def build_groups(ep_size):
    """ep groups: consecutive ranks (one node); edp groups: the same slot on every node."""
    world, rank = dist.get_world_size(), dist.get_rank()
    ep_group = edp_group = None
    for start in range(0, world, ep_size):
        ranks = list(range(start, start + ep_size))
        group = dist.new_group(ranks)
        if rank in ranks:
            ep_group = group
    for slot in range(ep_size):
        ranks = list(range(slot, world, ep_size))
        group = dist.new_group(ranks)
        if rank in ranks:
            edp_group = group
    return ep_group, edp_group


def sync_grads(model, edp_group):
    dense = [p.grad for p in model.parameters() if p.grad is not None and not getattr(p, "is_expert", False)]
    expert = [p.grad for p in model.parameters() if p.grad is not None and getattr(p, "is_expert", False)]
    handles = [dist.all_reduce(g, op=dist.ReduceOp.AVG, async_op=True) for g in dense]
    if dist.get_world_size(edp_group) > 1:
        for g in expert:
            dist.all_reduce(g, op=dist.ReduceOp.AVG, group=edp_group)
    for h in handles:
        h.wait()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--data", default="data/tokens.npy")
    p.add_argument("--ep", type=int, default=8)
    p.add_argument("--batch-size", type=int, default=4)
    p.add_argument("--steps", type=int, default=50000)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--log-interval", type=int, default=25)
    args = p.parse_args()

    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    device = torch.device("cuda", local_rank)
    torch.cuda.set_device(device)
    ep_group, edp_group = build_groups(args.ep)
    rank, world = dist.get_rank(), dist.get_world_size()

    cfg = MoEConfig()
    torch.manual_seed(0)  # dense weights identical on every rank
    model = MoEGPT(cfg, ep_group).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, betas=(0.9, 0.95), weight_decay=0.1)

    dataset = Windows(args.data, cfg.seq_len)
    sampler = DistributedSampler(dataset, num_replicas=world, rank=rank, shuffle=True)
    loader = DataLoader(dataset, batch_size=args.batch_size, sampler=sampler, num_workers=4, pin_memory=True,
                        drop_last=True)

    step, epoch, skipped = 0, 0, 0
    t0 = time.time()
    while step < args.steps:
        sampler.set_epoch(epoch)
        for x, y in loader:
            x = x.to(device, non_blocking=True)
            y = y.to(device, non_blocking=True)
            with torch.autocast("cuda", dtype=torch.bfloat16):
                ce, aux = model(x, y)
            loss = ce + cfg.aux_weight * aux
            if not torch.isfinite(loss):
                skipped += 1
                optimizer.zero_grad(set_to_none=True)
                continue
            loss.backward()
            sync_grads(model, edp_group)
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
            step += 1
            if step % args.log_interval == 0 and rank == 0:
                elapsed = time.time() - t0
                t0 = time.time()
                print(f"step {step} ce {ce.item():.4f} aux {aux.item():.4f} skipped {skipped} "
                      f"{elapsed / args.log_interval * 1000:.0f} ms/step")
            if step >= args.steps:
                break
        epoch += 1
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
