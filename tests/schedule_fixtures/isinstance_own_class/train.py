"""A batch held in an object of a class of the job's own (no base but
object): isinstance(batch, (list, torch.Tensor)) is False, so the helper
takes its else path (no synchronize) and the object's own to() moves the
images.

    python train.py
"""
import torch
import torch.nn as nn


class Batch(object):
    def __init__(self, images, labels):
        self.images = images
        self.labels = labels

    def to(self, device):
        return Batch(self.images.to(device), self.labels.to(device))


def move(batch, device):
    if isinstance(batch, (list, torch.Tensor)):
        torch.cuda.synchronize()
        return batch
    return batch.to(device)


def main():
    device = torch.device("cuda")
    model = nn.Linear(16, 4).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    data = torch.randn(64, 16)
    labels = torch.randint(0, 4, (64,))
    for step in range(100):
        batch = Batch(data, labels)
        batch = move(batch, device)
        loss = nn.functional.cross_entropy(model(batch.images), batch.labels)
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
