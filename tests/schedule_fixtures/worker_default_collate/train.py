import argparse
import functools

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

parser = argparse.ArgumentParser()
parser.add_argument("--class-cond", action="store_true")
args = parser.parse_args()


class Images(Dataset):
    def __init__(self, n, classes=None):
        self.n = n
        self.classes = classes
        self.calls = 0

    def __len__(self):
        return self.n

    def __getitem__(self, idx):
        self.calls += 1
        arr = np.random.rand(3, 8, 8).astype(np.float32)
        out = {}
        if self.classes is not None:
            out["y"] = np.array(self.classes[idx], dtype=np.int64)
        return arr, out, idx


classes = list(range(64)) if args.class_cond else None
loader = DataLoader(Images(64, classes), batch_size=16, num_workers=2, drop_last=True)
labelled = DataLoader(Images(64, list(range(64))), batch_size=16, num_workers=2)


def pack(samples, scale):
    return {"x": torch.stack([torch.from_numpy(s[0]) for s in samples]) * scale}


packed = DataLoader(Images(64), batch_size=16, num_workers=2, collate_fn=functools.partial(pack, scale=2.0))

device = torch.device("cuda")
model = nn.Sequential(nn.Flatten(), nn.Linear(192, 4)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)

for epoch in range(2):
    for (x, kw, idx), (_, lab, _), extra in zip(loader, labelled, packed):
        x = x.to(device)
        for k, v in extra.items():
            extra[k] = v.to(device)
        kw = {k: v.to(device) for k, v in kw.items()}
        y = {k: v.to(device) for k, v in lab.items()}["y"]
        loss = model(x).pow(2).mean() + y.float().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if idx.tolist()[0] == 0:
            print(loss.item())
