import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 2)

    def parse_batch(self, batch):
        x, y = batch
        return x.cuda(), (y.cuda(), y.cuda())

    def forward(self, x):
        h = self.fc(x)
        return [h, h.sigmoid()]


def show(targets, outputs):
    a, b = targets
    print(a[0].cpu().numpy(), outputs[1][0].cpu().numpy())


def validate(model, loader):
    model.eval()
    with torch.no_grad():
        for batch in loader:
            x, y = model.parse_batch(batch)
            y_pred = model(x)
    model.train()
    show(y, y_pred)


def main():
    model = Net().cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    data = TensorDataset(torch.randn(64, 8), torch.randn(64, 2))
    loader = DataLoader(data, batch_size=8)
    for step in range(1000):
        x = torch.randn(8, 8).cuda()
        loss = model(x)[0].sum()
        loss.backward()
        opt.step()
        opt.zero_grad()
        if step % 100 == 0:
            validate(model, loader)


if __name__ == "__main__":
    main()
