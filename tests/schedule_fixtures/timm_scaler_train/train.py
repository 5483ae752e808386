"""An image classifier trained with timm's helpers, which are not in the
repository: the model from create_model, the optimizer from
create_optimizer, and NativeScaler, whose call runs the backward and the
GradScaler's step.  After every epoch a @torch.no_grad() evaluation runs
the same (library-built) model over the validation loader.

    python train.py --epochs 3
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
from timm.models import create_model
from timm.optim import create_optimizer
from timm.utils import NativeScaler


def train_one_epoch(model, criterion, loader, optimizer, device, loss_scaler):
    model.train()
    for samples, targets in loader:
        samples = samples.to(device, non_blocking=True)
        targets = targets.to(device, non_blocking=True)
        with torch.cuda.amp.autocast():
            outputs = model(samples)
            loss = criterion(outputs, targets)
        optimizer.zero_grad()
        loss_scaler(loss, optimizer, clip_grad=None, parameters=model.parameters())


@torch.no_grad()
def evaluate(loader, model, device):
    model.eval()
    seen = 0
    for images, target in loader:
        images = images.to(device, non_blocking=True)
        output = model(images)
        seen += output.shape[0]
    return seen


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--lr", type=float, default=5e-4)
    p.add_argument("--opt", default="adamw")
    p.add_argument("--weight-decay", type=float, default=0.05)
    args = p.parse_args()

    device = torch.device("cuda")
    data = TensorDataset(torch.randn(512, 3, 32, 32), torch.randint(0, 10, (512,)))
    train_loader = DataLoader(data, batch_size=64, shuffle=True, pin_memory=True)
    val_loader = DataLoader(data, batch_size=128, pin_memory=True)
    model = create_model("resnet18", num_classes=10)
    model.to(device)
    optimizer = create_optimizer(args, model)
    loss_scaler = NativeScaler()
    criterion = nn.CrossEntropyLoss()
    for epoch in range(args.epochs):
        train_one_epoch(model, criterion, train_loader, optimizer, device, loss_scaler)
        evaluate(val_loader, model, device)


if __name__ == "__main__":
    main()
