"""A detector trained by epochs; after each epoch an EMA copy of the model
is validated by rank 0: the model's output is post-processed into one
tensor per image (a list made as [empty] * batch and filled by index),
each image's detections are listed on the host and written to JSON.

    python train.py --epochs 3
"""
import argparse
import json
import os
from copy import deepcopy

import torch
import torch.nn as nn
from detkit.torch_utils import is_parallel
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self, nc=3):
        super().__init__()
        self.head = nn.Linear(8, nc + 5)

    def forward(self, x):
        return self.head(x)


def de_parallel(model):
    return model.module if is_parallel(model) else model


class EMA:
    def __init__(self, model):
        self.ema = deepcopy(de_parallel(model)).eval()


def postprocess(pred):
    bs = pred.shape[0]
    out = [torch.zeros((0, 6), device=pred.device)] * bs
    for i in range(bs):
        out[i] = pred[i][:, :6]
    return out


def save_one_json(det, records):
    for *box, score in det.tolist():
        records.append({"box": box, "score": score})


def validate(model, loader):
    device = next(model.parameters()).device
    cuda = device.type != "cpu"
    records = []
    with torch.no_grad():
        for x, y in loader:
            if cuda:
                x = x.to(device)
            out = postprocess(model(x))
            for det in out:
                save_one_json(det, records)
                kept = det.cpu()
                rows = kept.tolist()
                both = torch.cat((kept, kept), 0)
                arr = both.numpy()
    with open("preds.json", "w") as fh:
        json.dump(records, fh)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=10)
    args = p.parse_args()

    device = torch.device("cuda")
    data = TensorDataset(torch.randn(256, 8), torch.randint(0, 3, (256,)))
    train_loader = DataLoader(data, batch_size=32, shuffle=True)
    val_loader = DataLoader(data, batch_size=64)
    model = Net().to(device)
    ema = EMA(model) if int(os.environ.get("RANK", -1)) in {-1, 0} else None
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(args.epochs):
        for x, y in train_loader:
            x = x.to(device)
            loss = model(x).sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
        if ema is not None:
            validate(ema.ema, val_loader)


if __name__ == "__main__":
    main()
