import torch
import torch.nn as nn

from logger import MetricLogger


class Crops(torch.utils.data.Dataset):
    """Each sample: a list of three crops and a label."""

    def __len__(self):
        return 64

    def __getitem__(self, i):
        return [torch.randn(3, 8, 8) for _ in range(3)], i % 10


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(3 * 8 * 8, 10)

    def forward(self, xs):
        return torch.cat([self.body(x.flatten(1)) for x in xs])


def train_one_epoch(model, loader, opt, device):
    logger = MetricLogger()
    for it, (crops, labels) in enumerate(logger.log_every(loader, 10)):
        crops = [c.to(device, non_blocking=True) for c in crops]
        labels = labels.to(device, non_blocking=True)
        out = model(crops)
        loss = nn.functional.cross_entropy(out, labels.repeat(len(crops)))
        opt.zero_grad()
        loss.backward()
        opt.step()
        logger.update(loss=loss.item())


def main():
    device = torch.device("cuda")
    model = Net().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = torch.utils.data.DataLoader(Crops(), batch_size=8, pin_memory=True)
    for epoch in range(2):
        train_one_epoch(model, loader, opt, device)


if __name__ == "__main__":
    main()
