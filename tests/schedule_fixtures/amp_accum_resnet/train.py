"""Train a ResNet classifier on one GPU with fp16 autocast, a GradScaler and
gradient accumulation.

    python train.py --data data/imagenet64 --batch-size 128 --accum-steps 4
"""
import argparse
import math
import os
import time

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from data import ShardDataset
from model import ResNet


def get_args():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--data", default="data/imagenet64")
    p.add_argument("--out-dir", default="runs/resnet")
    p.add_argument("--batch-size", type=int, default=128)
    p.add_argument("--accum-steps", type=int, default=4)
    p.add_argument("--epochs", type=int, default=30)
    p.add_argument("--lr", type=float, default=0.2)
    p.add_argument("--warmup-steps", type=int, default=500)
    p.add_argument("--log-interval", type=int, default=50)
    p.add_argument("--num-workers", type=int, default=4)
    return p.parse_args()


def lr_at(step, total, args):
    if step < args.warmup_steps:
        return args.lr * (step + 1) / args.warmup_steps
    progress = (step - args.warmup_steps) / max(1, total - args.warmup_steps)
    return 0.5 * args.lr * (1 + math.cos(math.pi * progress))


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    correct = torch.zeros((), device=device)
    seen = 0
    for images, labels in loader:
        images = images.to(device, non_blocking=True)
        labels = labels.to(device, non_blocking=True)
        with torch.autocast("cuda", dtype=torch.float16):
            logits, _ = model(images)
        correct += (logits.argmax(dim=-1) == labels).sum()
        seen += labels.size(0)
    model.train()
    return correct.item() / seen


def main():
    args = get_args()
    torch.backends.cudnn.benchmark = True
    device = torch.device("cuda", 0)
    os.makedirs(args.out_dir, exist_ok=True)

    train_set = ShardDataset(os.path.join(args.data, "train"), train=True)
    val_set = ShardDataset(os.path.join(args.data, "val"), train=False)
    train_loader = DataLoader(train_set, batch_size=args.batch_size, shuffle=True, num_workers=args.num_workers,
                              pin_memory=True, drop_last=True, persistent_workers=True)
    val_loader = DataLoader(val_set, batch_size=256, shuffle=False, num_workers=args.num_workers, pin_memory=True)

    model = ResNet(num_classes=train_set.num_classes).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, weight_decay=5e-5, nesterov=True)
    scaler = torch.cuda.amp.GradScaler()

    freqs = torch.tensor(train_set.class_counts(), dtype=torch.float32)
    print(f"{len(train_set)} images, {train_set.num_classes} classes, imbalance {(freqs.max() / freqs.min()).item():.1f}x")
    class_weights = (freqs.sum() / freqs.clamp(min=1)).to(device)

    steps_per_epoch = len(train_loader) // args.accum_steps
    total_steps = args.epochs * steps_per_epoch
    step = 0
    best_acc = 0.0
    for epoch in range(args.epochs):
        model.train()
        optimizer.zero_grad(set_to_none=True)
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for i, (images, labels) in enumerate(train_loader):
            images = images.to(device, non_blocking=True)
            labels = labels.to(device, non_blocking=True)
            with torch.autocast("cuda", dtype=torch.float16):
                logits, _ = model(images)
                loss = F.cross_entropy(logits.float(), labels, weight=class_weights, label_smoothing=0.1)
            scaler.scale(loss / args.accum_steps).backward()
            if (i + 1) % args.accum_steps != 0:
                continue

            lr = lr_at(step, total_steps, args)
            for group in optimizer.param_groups:
                group["lr"] = lr
            scaler.unscale_(optimizer)
            grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 2.0)
            scaler.step(optimizer)
            scaler.update()
            optimizer.zero_grad(set_to_none=True)
            step += 1

            if step % args.log_interval == 0:
                torch.cuda.synchronize()
                dt = (time.perf_counter() - t0) / args.log_interval
                t0 = time.perf_counter()
                print(f"epoch {epoch} step {step}/{total_steps} loss {loss.item():.4f} "
                      f"grad_norm {grad_norm.item():.2f} lr {lr:.3e} {dt * 1000:.0f} ms/step")

        acc = evaluate(model, val_loader, device)
        print(f"epoch {epoch}: val acc {acc:.4f} (best {best_acc:.4f})")
        if acc > best_acc:
            best_acc = acc
            torch.save({"model": model.state_dict(), "epoch": epoch, "acc": acc},
                       os.path.join(args.out_dir, "best.pt"))


if __name__ == "__main__":
    main()
