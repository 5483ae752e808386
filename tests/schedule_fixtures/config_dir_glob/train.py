# Model configurations found by globbing a directory of the repository
# (as open_clip's factory fills its registry from model_configs/*.json):
# the files are read from the tree at the commit, so the chosen config's
# values decide the job's branches.
import json
from pathlib import Path

import torch
import torch.nn as nn

_CONFIG_DIR = Path(__file__).parent / "configs"
_CONFIGS = {}


def _rescan():
    files = []
    if _CONFIG_DIR.is_dir():
        files.extend(_CONFIG_DIR.glob("*.json"))
    for cf in files:
        with open(cf) as f:
            _CONFIGS[cf.stem] = json.load(f)


_rescan()


class Net(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.fc = nn.Linear(width, 1)

    def forward(self, x):
        return self.fc(x)


def main():
    cfg = _CONFIGS["small"]
    model = Net(cfg["width"]).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        x = torch.randn(4, cfg["width"], device="cuda")
        loss = model(x).sum()
        loss.backward()
        opt.step()
        opt.zero_grad()
        if cfg["debug"]:
            print(loss.item())


if __name__ == "__main__":
    main()
