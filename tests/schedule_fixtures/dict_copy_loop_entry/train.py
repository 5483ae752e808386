"""A detection-style job: a DataLoader of (image, target dict) pairs
collated as tuples; each target's tensors are moved with a dict
comprehension.  The model's forward copies each target dict entry by entry
(`for k, v in t.items(): data[k] = v`), then checks the boxes for
degenerate ones with `if degenerate.any():`, a read of a device bool."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class Boxes(Dataset):
    def __len__(self):
        return 1000

    def __getitem__(self, i):
        image = torch.randn(3, 64, 64)
        target = {"boxes": torch.rand(5, 4) * 64, "labels": torch.randint(0, 10, (5,))}
        return image, target


def collate_fn(batch):
    return tuple(zip(*batch))


class Detector(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)

    def forward(self, images, targets):
        copies = []
        for t in targets:
            data = {}
            for k, v in t.items():
                data[k] = v
            copies.append(data)
        for target in copies:
            boxes = target["boxes"]
            degenerate = boxes[:, 2:] <= boxes[:, :2]
            if degenerate.any():
                raise ValueError("degenerate box")
        feats = [self.conv(img[None]) for img in images]
        return sum(f.mean() for f in feats)


def main():
    device = torch.device("cuda")
    model = Detector().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    loader = DataLoader(Boxes(), batch_size=2, shuffle=True, collate_fn=collate_fn)
    for epoch in range(3):
        for images, targets in loader:
            images = [img.to(device) for img in images]
            targets = [{k: v.to(device) for k, v in t.items()} for t in targets]
            loss = model(images, targets)
            opt.zero_grad()
            loss.backward()
            opt.step()


if __name__ == "__main__":
    main()
