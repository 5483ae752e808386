"""Score query/passage pairs with a cross-encoder; every rank writes its share
as JSON lines.

    torchrun --nproc_per_node=4 score.py --input data/pairs.jsonl --out-dir scores/
"""
import argparse
import json
import os
import time

import torch
import torch.distributed as dist
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler

from data import PairCollator, PairsDataset, WordPiece
from model import CrossEncoder, EncoderConfig


def get_args():
    p = argparse.ArgumentParser()
    p.add_argument("--input", default="data/pairs.jsonl")
    p.add_argument("--vocab", default="data/vocab.txt")
    p.add_argument("--ckpt", default="ckpt/cross-encoder.pt")
    p.add_argument("--out-dir", default="scores")
    p.add_argument("--batch-size", type=int, default=256)
    p.add_argument("--max-len", type=int, default=512)
    p.add_argument("--log-every", type=int, default=100)
    return p.parse_args()


def main():
    args = get_args()
    distributed = "WORLD_SIZE" in os.environ
    if distributed:
        dist.init_process_group("nccl")
        rank, world = dist.get_rank(), dist.get_world_size()
        local_rank = int(os.environ["LOCAL_RANK"])
    else:
        rank, world, local_rank = 0, 1, 0
    device = torch.device("cuda", local_rank)
    torch.cuda.set_device(device)
    os.makedirs(args.out_dir, exist_ok=True)

    dataset = PairsDataset(args.input)
    sampler = DistributedSampler(dataset, num_replicas=world, rank=rank, shuffle=False) if distributed else None
    loader = DataLoader(dataset, batch_size=args.batch_size, sampler=sampler, shuffle=False, num_workers=4,
                        pin_memory=True, collate_fn=PairCollator(WordPiece(args.vocab), args.max_len))

    model = CrossEncoder(EncoderConfig())
    model.load_state_dict(torch.load(args.ckpt, map_location="cpu", weights_only=True))
    model.to(device).eval()

    out_path = os.path.join(args.out_dir, f"scores.rank{rank}.jsonl")
    n_written, n_tokens = 0, 0
    t0 = time.time()
    with torch.inference_mode(), open(out_path, "w") as f:
        for step, batch in enumerate(loader):
            n_tokens += batch["attention_mask"].sum().item()
            input_ids = batch["input_ids"].to(device, non_blocking=True)
            token_type_ids = batch["token_type_ids"].to(device, non_blocking=True)
            attention_mask = batch["attention_mask"].to(device, non_blocking=True)
            with torch.autocast("cuda", dtype=torch.float16):
                logits = model(input_ids, token_type_ids, attention_mask)
            scores = torch.sigmoid(logits.float()).cpu()
            for pair_id, s in zip(batch["pair_id"], scores.tolist()):
                f.write(json.dumps({"pair_id": pair_id, "score": round(s, 6)}) + "\n")
            n_written += len(batch["pair_id"])
            if step % args.log_every == 0 and rank == 0:
                rate = n_tokens / (time.time() - t0)
                print(f"[rank 0] {n_written}/{len(sampler) if sampler else len(dataset)} pairs, {rate:,.0f} tok/s")

    total = torch.tensor([n_written], dtype=torch.long, device=device)
    if distributed:
        dist.all_reduce(total, op=dist.ReduceOp.SUM)
    if rank == 0:
        print(f"wrote {total.item()} scores to {args.out_dir}")
    if distributed:
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
