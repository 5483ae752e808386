"""Scores a validation set with a trained classifier and writes the
per-batch results: a batch job.  It looks like the training jobs around
it -- a loss from a criterion, an object called with the loss and a
second argument as a loss scaler is, model.train(False), an epoch-style
loop -- but nothing runs a backward or steps an optimizer.

    python score.py --out preds.jsonl
"""
import argparse
import json

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Meter:
    def __init__(self):
        self.total = 0.0
        self.n = 0

    def __call__(self, loss, n):
        self.total += loss * n
        self.n += n


def build_model(num_classes):
    return nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 256), nn.ReLU(), nn.Linear(256, num_classes))


@torch.no_grad()
def score(loader, model, criterion, device, meter, out):
    model.train(False)
    for images, target in loader:
        images = images.to(device, non_blocking=True)
        target = target.to(device, non_blocking=True)
        output = model(images)
        loss = criterion(output, target)
        meter(loss, images.shape[0])
        out.write(json.dumps({"n": images.shape[0]}) + "\n")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", default="preds.jsonl")
    p.add_argument("--batch-size", type=int, default=256)
    p.add_argument("--passes", type=int, default=2)
    args = p.parse_args()

    device = torch.device("cuda")
    data = TensorDataset(torch.randn(1024, 3, 32, 32), torch.randint(0, 10, (1024,)))
    loader = DataLoader(data, batch_size=args.batch_size, pin_memory=True)
    model = build_model(10)
    model.to(device)
    criterion = nn.CrossEntropyLoss()
    meter = Meter()
    with open(args.out, "w") as out:
        for _ in range(args.passes):
            score(loader, model, criterion, device, meter, out)
    print("mean loss", float(meter.total) / max(meter.n, 1))


if __name__ == "__main__":
    main()
