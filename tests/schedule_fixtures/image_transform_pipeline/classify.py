"""Classify every picture of a directory with a small CNN: each picture
goes through a torchvision transform pipeline on the host, then to the
GPU.

    python classify.py --images photos/
"""
import argparse
import os

import torch
import torch.nn as nn
import torchvision.transforms.functional as TF
from PIL import Image
from torchvision import transforms


class SmallCNN(nn.Module):
    def __init__(self, classes=10):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(8, classes)

    def forward(self, x):
        return self.fc(self.pool(torch.relu(self.conv(x))).flatten(1))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--images", required=True)
    args = p.parse_args()
    device = torch.device("cuda")
    model = SmallCNN().to(device).eval()
    tf = transforms.Compose([
        transforms.Resize(64),
        transforms.CenterCrop(64),
        transforms.ToTensor(),
        transforms.Lambda(lambda t: t * 255),
        transforms.Normalize([0.5, 0.5, 0.5], [0.5, 0.5, 0.5]),
    ])
    mask = TF.to_tensor(Image.open("mask.png")).to(device)
    with torch.no_grad():
        for name in sorted(os.listdir(args.images)):
            img = Image.open(os.path.join(args.images, name)).convert("RGB")
            x = tf(img).unsqueeze(0).to(device)
            logits = model(x * mask)
            print(name, logits.argmax(1).item())


if __name__ == "__main__":
    main()
