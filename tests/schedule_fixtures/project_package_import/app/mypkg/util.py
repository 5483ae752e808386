import torch


def to_device(batch, device):
    return {k: v.to(device) for k, v in batch.items()}


def log_loss(step, loss):
    if step % 10 == 0:
        print(step, loss.item())
