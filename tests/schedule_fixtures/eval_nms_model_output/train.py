"""A detector's evaluation after each training epoch: the model's layers
are built from the layer table its checkpoint holds (the file decides
them), so what its forward returns is read only as a device tensor.  Non-maximum suppression walks the predictions image by
image with enumerate(): each image's rows are a device tensor, filtered
with a boolean mask, nonzero() of the class scores and torchvision's nms
(its CUDA kernel copies the suppression mask to the host).  The nms of
host boxes at start-up reads nothing from a device."""
import argparse

import torch
import torch.nn as nn
import torchvision


class Layer(nn.Module):
    def __init__(self, c1, c2, f=-1):
        super().__init__()
        self.conv = nn.Conv2d(c1, c2, 3, padding=1)
        self.f = f
        self.no = c2

    def forward(self, x):
        if isinstance(x, list):
            x = torch.cat(x, 1)
        x = self.conv(x)
        return x.flatten(2).transpose(1, 2)[..., : self.no] if self.no == 85 else x


class Detector(nn.Module):
    def __init__(self, table):
        super().__init__()
        layers = []
        for c1, c2, f in table:
            layers.append(Layer(c1, c2, f))
        self.model = nn.Sequential(*layers)

    def forward(self, x):
        y = []
        for m in self.model:
            if m.f != -1:
                x = y[m.f] if isinstance(m.f, int) else [y[j] for j in m.f]
            x = m(x)
            y.append(x)
        return x


def nms(prediction, conf_thres=0.25, iou_thres=0.45):
    xc = prediction[..., 4] > conf_thres
    output = [torch.zeros((0, 6), device=prediction.device)] * prediction.shape[0]
    for xi, x in enumerate(prediction):
        x = x[xc[xi]]
        if not x.shape[0]:
            continue
        i, j = (x[:, 5:] > conf_thres).nonzero(as_tuple=False).T
        x = torch.cat((x[i, :4], x[i, j + 5, None], j[:, None].float()), 1)
        keep = torchvision.ops.nms(x[:, :4], x[:, 4], iou_thres)
        output[xi] = x[keep]
    return output


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--steps", type=int, default=50)
    p.add_argument("--weights", default="detector.pt")
    args = p.parse_args()
    device = torch.device("cuda")
    ckpt = torch.load(args.weights, map_location="cpu")
    model = Detector(ckpt["table"]).to(device)
    ref = torchvision.ops.nms(torch.rand(16, 4), torch.rand(16), 0.5)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for epoch in range(args.epochs):
        model.train()
        for step in range(args.steps):
            imgs = torch.randn(8, 3, 32, 32, device=device)
            loss = model(imgs).float().mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            for batch in range(4):
                imgs = torch.randn(8, 3, 32, 32, device=device)
                preds = model(imgs)
                out = nms(preds)


if __name__ == "__main__":
    main()
