"""Pre-activation ResNet for 64x64 images (ImageNet-64 style)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PreActBlock(nn.Module):
    def __init__(self, in_ch, out_ch, stride=1):
        super().__init__()
        self.bn1 = nn.BatchNorm2d(in_ch)
        self.conv1 = nn.Conv2d(in_ch, out_ch, 3, stride=stride, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(out_ch)
        self.conv2 = nn.Conv2d(out_ch, out_ch, 3, padding=1, bias=False)
        self.shortcut = None
        if stride != 1 or in_ch != out_ch:
            self.shortcut = nn.Conv2d(in_ch, out_ch, 1, stride=stride, bias=False)

    def forward(self, x):
        out = F.relu(self.bn1(x))
        skip = self.shortcut(out) if self.shortcut is not None else x
        out = self.conv1(out)
        out = self.conv2(F.relu(self.bn2(out)))
        return out + skip


class ResNet(nn.Module):
    def __init__(self, num_classes=1000, widths=(64, 128, 256, 512), blocks_per_stage=2, image_size=64):
        super().__init__()
        self.image_size = image_size
        self.stem = nn.Conv2d(3, widths[0], 3, padding=1, bias=False)
        layers = []
        in_ch = widths[0]
        for i, w in enumerate(widths):
            for j in range(blocks_per_stage):
                stride = 2 if (i > 0 and j == 0) else 1
                layers.append(PreActBlock(in_ch, w, stride))
                in_ch = w
        self.layers = nn.Sequential(*layers)
        self.norm = nn.BatchNorm2d(in_ch)
        self.head = nn.Linear(in_ch, num_classes)

    def forward(self, x, labels=None, label_smoothing=0.0):
        if x.shape[-1] != self.image_size or x.shape[-2] != self.image_size:
            raise ValueError(f"expected {self.image_size}x{self.image_size} images, got {tuple(x.shape)}")
        x = self.layers(self.stem(x))
        x = F.relu(self.norm(x))
        logits = self.head(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))
        if labels is None:
            return logits, None
        # labels < 0 mark images whose class was dropped from the split
        labels = torch.where(labels < 0, torch.full_like(labels, -100), labels)
        loss = F.cross_entropy(logits, labels, ignore_index=-100, label_smoothing=label_smoothing)
        return logits, loss
