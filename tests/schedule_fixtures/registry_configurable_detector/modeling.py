import torch
import torch.nn as nn
from fvcore.common.registry import Registry

from config import configurable

META_ARCH_REGISTRY = Registry("META_ARCH")
BACKBONE_REGISTRY = Registry("BACKBONE")


class SmallBackbone(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.conv = nn.Conv2d(3, width, 3, padding=1)

    def forward(self, x):
        return self.conv(x).relu()


def build_small_backbone(cfg):
    return SmallBackbone(cfg.MODEL.WIDTH)


BACKBONE_REGISTRY.register(build_small_backbone)


class OtherBackbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 3)

    def forward(self, x):
        if x.max() > 1:
            x = x / x.max()
        return self.fc(x)


@BACKBONE_REGISTRY.register()
def build_other_backbone(cfg):
    return OtherBackbone()


@META_ARCH_REGISTRY.register()
class Detector(nn.Module):
    @configurable
    def __init__(self, *, backbone, width, num_classes=10):
        super().__init__()
        self.backbone = backbone
        self.head = nn.Linear(width, num_classes)

    @classmethod
    def from_config(cls, cfg):
        return {
            "backbone": BACKBONE_REGISTRY.get(cfg.MODEL.BACKBONE)(cfg),
            "width": cfg.MODEL.WIDTH,
        }

    def forward(self, batched_inputs):
        assert batched_inputs, "no inputs"
        images = torch.stack([x["image"] for x in batched_inputs])
        feats = self.backbone(images).mean(dim=(2, 3))
        logits = self.head(feats)
        if not self.training:
            return logits
        labels = torch.stack([x["label"] for x in batched_inputs])
        num_fg = (labels > 0).sum().item()
        loss = nn.functional.cross_entropy(logits, labels)
        return {"loss_cls": loss, "num_fg": num_fg}


def build_model(cfg):
    model = META_ARCH_REGISTRY.get(cfg.MODEL.META_ARCHITECTURE)(cfg)
    model.to(torch.device(cfg.MODEL.DEVICE))
    return model
