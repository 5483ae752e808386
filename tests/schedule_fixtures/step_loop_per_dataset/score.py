"""A batch scorer whose per-batch loop is inside a helper called once per
dataset, from two places of main (the generated set, then the reference
set): each call runs a step loop of its own, so the batch copy and the
features' .cpu() run once per batch (step), not twice.  What each call
does outside its loop (the scale's copy) adds up: once per call, twice.

    python score.py gen/ ref/
"""
import argparse

import numpy as np
import torch
import torch.nn as nn


def features(model, n_batches, device):
    out = []
    scale = torch.tensor([0.5]).to(device)
    for i in range(n_batches):
        batch = torch.randn(16, 32)
        batch = batch.to(device)
        with torch.no_grad():
            pred = model(batch) * scale
        out.append(pred.cpu().numpy())
    return np.concatenate(out)


def stats(model, path, device):
    act = features(model, 10, device)
    return act.mean(axis=0), np.cov(act, rowvar=False)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("paths", nargs=2)
    args = parser.parse_args()
    device = torch.device("cuda")
    model = nn.Linear(32, 8).to(device)
    m1, s1 = stats(model, args.paths[0], device)
    m2, s2 = stats(model, args.paths[1], device)
    print(float(((m1 - m2) ** 2).sum() + np.trace(s1 + s2)))


if __name__ == "__main__":
    main()
