"""A DETR-style criterion: the number of target boxes, a Python int, is
made into a tensor on the device of the model's first output
(next(iter(outputs.values())).device): a copy of host data every step."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Detector(nn.Module):
    def __init__(self):
        super().__init__()
        self.cls = nn.Linear(16, 5)
        self.box = nn.Linear(16, 4)

    def forward(self, x):
        return {"pred_logits": self.cls(x), "pred_boxes": self.box(x).sigmoid()}


class Criterion(nn.Module):
    def forward(self, outputs, targets):
        num_boxes = sum(len(t["labels"]) for t in targets)
        num_boxes = torch.as_tensor([num_boxes], dtype=torch.float, device=next(iter(outputs.values())).device)
        loss = F.l1_loss(outputs["pred_boxes"], torch.zeros_like(outputs["pred_boxes"]), reduction="sum")
        return loss / num_boxes.clamp(min=1)


def main():
    device = torch.device("cuda")
    model = Detector().to(device)
    criterion = Criterion()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(1000):
        x = torch.randn(8, 16).to(device)
        targets = [{"labels": torch.randint(0, 5, (3,)).to(device)} for _ in range(8)]
        outputs = model(x)
        loss = criterion(outputs, targets)
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
