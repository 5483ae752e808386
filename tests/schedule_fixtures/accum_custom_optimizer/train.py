"""An MLP regressor trained with Lion, in optimizer steps of --grad-accum micro-steps.

    python train.py --max-steps 2000 --grad-accum 8
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from lion import Lion


def compute_dtype():
    # bf16 where the GPU has it, else fp32: never fp16 here, but ecg cannot tell
    if torch.cuda.is_available():
        if torch.cuda.get_device_capability() >= (8, 0):
            return torch.bfloat16
        return torch.float32
    return torch.float32


p = argparse.ArgumentParser()
p.add_argument("--max-steps", type=int, default=2000)
p.add_argument("--grad-accum", type=int, default=8)
p.add_argument("--eval-every", type=int, default=100)
p.add_argument("--eval-iters", type=int, default=20)
p.add_argument("--batch-size", type=int, default=64)
args = p.parse_args()

device = "cuda"
dtype = compute_dtype()
model = nn.Sequential(nn.Linear(32, 256), nn.GELU(), nn.Linear(256, 1)).to(device)
optimizer = Lion(model.parameters(), lr=3e-4)
scaler = torch.amp.GradScaler() if dtype == torch.float16 else None


def get_batch():
    x = torch.randn(args.batch_size, 32)
    y = x.sum(dim=1, keepdim=True)
    return x.pin_memory().to(device, non_blocking=True), y.pin_memory().to(device, non_blocking=True)


step = 0
while True:
    last_step = step == args.max_steps
    if step % args.eval_every == 0:
        model.eval()
        with torch.no_grad():
            total = 0.0
            for _ in range(args.eval_iters):
                x, y = get_batch()
                total += F.mse_loss(model(x), y).item()
        print(f"step {step}: val {total / args.eval_iters:.4f}")
        model.train()
    if last_step:
        break
    for micro_step in range(args.grad_accum):
        x, y = get_batch()
        loss = F.mse_loss(model(x), y) / args.grad_accum
        if scaler is not None:
            scaler.scale(loss).backward()
        else:
            loss.backward()
    if scaler is not None:
        scaler.step(optimizer)
        scaler.update()
    else:
        optimizer.step()
    optimizer.zero_grad(set_to_none=True)
    train_loss = loss.item() * args.grad_accum
    step += 1
