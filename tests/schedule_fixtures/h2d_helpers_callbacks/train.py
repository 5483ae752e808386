import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from utils import Trainer


def collate(batch):
    return tuple(zip(*batch))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(32, 4)

    def forward(self, x):
        return self.fc(x)


class Criterion(nn.Module):
    def forward(self, out, targets):
        sizes = torch.as_tensor([len(t["labels"]) for t in targets], device=out.device)
        return out.sum() + sizes.sum() * 0


def on_batch_end(trainer):
    if trainer.iter_num % 100 == 0:
        print(f"iter {trainer.iter_num}: loss {trainer.loss.item():.4f}")


def main():
    device = torch.device("cuda")
    model = Net().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(list(range(1000)), batch_size=8, collate_fn=collate)
    trainer = Trainer(model, loader, device)
    trainer.add_callback("on_batch_end", on_batch_end)
    trainer.run(opt, Criterion())


if __name__ == "__main__":
    main()
