"""A model whose forward returns a loss dict in training mode and a
(predictions, features) tuple in eval mode; the predictions' last dimension
is nc + 5.  Job code reads what the call returns: the losses' values, and
the predictions row by row, with nc read from their shape."""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Head(nn.Module):
    def __init__(self, nc):
        super().__init__()
        self.no = nc + 5
        self.fc = nn.Linear(16, self.no * 3)

    def forward(self, x):
        y = self.fc(x)
        if self.training:
            return {"loss_box": y.abs().mean(), "loss_cls": y.pow(2).mean()}
        return y.view(x.shape[0], 3, self.no), y


class Net(nn.Module):
    def __init__(self, nc):
        super().__init__()
        self.backbone = nn.Linear(8, 16)
        self.head = Head(nc)

    def forward(self, x):
        return self.head(self.backbone(x))


def suppress(prediction, conf_thres=0.25):
    nc = prediction.shape[2] - 5
    multi_label = nc > 1
    out = []
    for xi, x in enumerate(prediction):
        x = x[x[:, 4] > conf_thres]
        if not x.shape[0]:
            continue
        if multi_label:
            i, j = (x[:, 5:] > conf_thres).nonzero(as_tuple=False).T
            x = torch.cat((x[i, :4], j[:, None].float()), 1)
        else:
            best = x[:, 5:].argmax(1).tolist()
            x = x[:, :5]
        out.append(x)
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--nc", type=int, default=80)
    args = p.parse_args()

    device = torch.device("cuda")
    data = TensorDataset(torch.randn(256, 8))
    train_loader = DataLoader(data, batch_size=32, shuffle=True)
    val_loader = DataLoader(data, batch_size=64)
    model = Net(args.nc).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(args.epochs):
        model.train()
        for (x,) in train_loader:
            x = x.to(device)
            loss_dict = model(x)
            loss = sum(v for v in loss_dict.values())
            opt.zero_grad()
            loss.backward()
            opt.step()
            if isinstance(loss_dict, dict):
                logged = {}
                for k, v in loss_dict.items():
                    logged[k] = v.item()
            else:
                logged = {"loss": loss_dict.item()}
        model.eval()
        with torch.no_grad():
            for (x,) in val_loader:
                x = x.to(device)
                pred, feats = model(x)
                dets = suppress(pred)


if __name__ == "__main__":
    main()
