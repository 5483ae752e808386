import os
import shutil
import sys

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

from meters import Kind, Meter


class Folder(Dataset):
    def __init__(self, root):
        self.files = sorted(os.listdir(root))

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        return torch.randn(32), i % 10


def run(model, loader, acc, losses, device):
    with torch.no_grad():
        for x, y in loader:
            x = x.to(device)
            y = y.to(device)
            out = model(x)
            loss = nn.functional.cross_entropy(out, y)
            losses.update(loss.item(), x.size(0))
            acc.update((out.argmax(1) == y).float().mean(), x.size(0))


def evaluate(model, val_set, device, world_size):
    acc = Meter("acc")
    losses = Meter("loss", Kind.NONE)
    per_rank = len(val_set) // world_size
    run(model, DataLoader(torch.utils.data.Subset(val_set, range(per_rank)), batch_size=64), acc, losses, device)
    acc.all_reduce(device)
    losses.all_reduce(device)
    if per_rank * world_size < len(val_set):
        rest = torch.utils.data.Subset(val_set, range(per_rank * world_size, len(val_set)))
        run(model, DataLoader(rest, batch_size=64), acc, losses, device)
    print(acc.summary(), losses.summary())
    print(f"loss {losses.avg:.3f}")
    return acc.avg


def save(model, is_best):
    torch.save(model.state_dict(), "last.pt")
    if is_best:
        shutil.copyfile("last.pt", "best.pt")


def train_epoch(model, loader, opt, device):
    total = torch.zeros((), device=device)
    for x, y in loader:
        x = x.to(device)
        y = y.to(device)
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.detach()
    return total.item()


def main():
    dist.init_process_group("nccl")
    world_size = dist.get_world_size()
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    model = nn.Linear(32, 10).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    train_loader = DataLoader(Folder(sys.argv[1]), batch_size=64)
    val_set = Folder(sys.argv[2])
    best = 0.0
    for epoch in range(10):
        train_epoch(model, train_loader, opt, device)
        acc1 = evaluate(model, val_set, device, world_size)
        is_best = acc1 > best
        best = max(acc1, best)
        save(model, is_best)


if __name__ == "__main__":
    main()
