import dataclasses

import torch
import torch.nn as nn


@dataclasses.dataclass
class Snapshot:
    model_state: dict
    epoch: int


def restore(model, path):
    data = torch.load(path, map_location="cpu")
    snap = Snapshot(**data)
    model.load_state_dict(snap.model_state)
    return snap.epoch


def main():
    model = nn.Linear(8, 8).cuda()
    start = restore(model, "snapshot.pt")
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(start, 100):
        x = torch.randn(4, 8).cuda()
        loss = model(x).pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()
    torch.save(model.state_dict(), "final.pt")


if __name__ == "__main__":
    main()
