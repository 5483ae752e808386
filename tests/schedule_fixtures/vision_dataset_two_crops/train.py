import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torchvision.datasets as datasets
import torchvision.transforms as transforms
from torch.nn.parallel import DistributedDataParallel as DDP


class TwoCrops:
    def __init__(self, base):
        self.base = base

    def __call__(self, x):
        return [self.base(x), self.base(x)]


class Siamese(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(12, 4)

    def forward(self, x1, x2):
        return self.net(x1.flatten(1)), self.net(x2.flatten(1))


def main():
    dist.init_process_group(backend="nccl")
    rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(rank)
    model = Siamese().cuda(rank)
    model = DDP(model, device_ids=[rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    aug = transforms.Compose([transforms.RandomResizedCrop(2), transforms.ToTensor()])
    train = datasets.ImageFolder("/data/train", TwoCrops(aug))
    loader = torch.utils.data.DataLoader(train, batch_size=32, num_workers=4, pin_memory=True, drop_last=True)
    for epoch in range(10):
        for images, _ in loader:
            images[0] = images[0].cuda(rank, non_blocking=True)
            images[1] = images[1].cuda(rank, non_blocking=True)
            z1, z2 = model(x1=images[0], x2=images[1])
            loss = -(z1 * z2).sum(dim=1).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()


if __name__ == "__main__":
    main()
