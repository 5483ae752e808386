"""A classifier trained with DDP; after each epoch validate() runs the model
under no_grad over the validation loader, then sums two accuracy meters
over the ranks (each meter's all_reduce, outside the no_grad block).

    torchrun --nproc_per_node 2 train.py
"""
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Meter:
    def __init__(self):
        self.sum = 0.0
        self.count = 0

    def update(self, val, n):
        self.sum += val * n
        self.count += n

    def all_reduce(self, device):
        total = torch.tensor([self.sum, self.count], dtype=torch.float32, device=device)
        dist.all_reduce(total)
        self.sum, self.count = total.tolist()


def validate(model, loader, device):
    top1 = Meter()
    top5 = Meter()
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            out = model(x)
            top1.update(float((out.argmax(1) == y).float().mean()), x.size(0))
            top5.update(0.0, x.size(0))
    top1.all_reduce(device)
    top5.all_reduce(device)
    return top1.sum / max(top1.count, 1)


def main():
    dist.init_process_group("nccl")
    device = torch.device("cuda")
    model = nn.Linear(32, 10).to(device)
    model = nn.parallel.DistributedDataParallel(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    train_loader = DataLoader(TensorDataset(torch.randn(512, 32), torch.randint(0, 10, (512,))), batch_size=64)
    val_loader = DataLoader(TensorDataset(torch.randn(128, 32), torch.randint(0, 10, (128,))), batch_size=64)
    for epoch in range(10):
        for x, y in train_loader:
            x, y = x.to(device), y.to(device)
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        acc = validate(model, val_loader, device)
        print(epoch, acc)


if __name__ == "__main__":
    main()
