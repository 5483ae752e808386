"""A k-NN scorer: the features of a reference set are extracted batch by
batch (the step loop), then a second pass over the query set, in a
function of its own under no_grad, runs the model and scores each batch
against them.

    python score.py
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


@torch.no_grad()
def extract(model, loader):
    feats = []
    for x, _ in loader:
        x = x.cuda(non_blocking=True)
        feats.append(model(x))
    return torch.cat(feats)


@torch.no_grad()
def classify(model, loader, bank, labels):
    hits = []
    for x, y in loader:
        x = x.to("cuda")
        y = y.to("cuda")
        sims = model(x) @ bank.T
        hits.append((labels[sims.argmax(dim=1)] == y).float())
    return torch.cat(hits).mean()


def main():
    ref = TensorDataset(torch.randn(4096, 32), torch.randint(0, 10, (4096,)))
    query = TensorDataset(torch.randn(512, 32), torch.randint(0, 10, (512,)))
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 16)).cuda().eval()
    bank = extract(model, DataLoader(ref, batch_size=256, pin_memory=True))
    labels = ref.tensors[1].cuda()
    acc = classify(model, DataLoader(query, batch_size=256), bank, labels)
    print(f"top-1 {acc.item():.3f}")


if __name__ == "__main__":
    main()
