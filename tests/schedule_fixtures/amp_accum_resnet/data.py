"""Image shards: each split is a directory of images_*.npy (N, 64, 64, 3)
uint8 arrays with a matching labels_*.npy."""
import glob
import os

import numpy as np
import torch
from torch.utils.data import Dataset

MEAN = torch.tensor([0.481, 0.457, 0.408]).view(3, 1, 1)
STD = torch.tensor([0.268, 0.261, 0.275]).view(3, 1, 1)


class ShardDataset(Dataset):
    def __init__(self, root, train=True):
        self.train = train
        self.images = [np.load(f, mmap_mode="r") for f in sorted(glob.glob(os.path.join(root, "images_*.npy")))]
        self.labels = [np.load(f) for f in sorted(glob.glob(os.path.join(root, "labels_*.npy")))]
        self.offsets = np.cumsum([0] + [len(a) for a in self.images])
        self.num_classes = int(max(int(l.max()) for l in self.labels)) + 1

    def __len__(self):
        return int(self.offsets[-1])

    def class_counts(self):
        counts = np.zeros(self.num_classes, dtype=np.int64)
        for l in self.labels:
            counts += np.bincount(l[l >= 0], minlength=self.num_classes)
        return counts.tolist()

    def __getitem__(self, idx):
        shard = int(np.searchsorted(self.offsets, idx, side="right")) - 1
        row = idx - self.offsets[shard]
        img = torch.from_numpy(np.ascontiguousarray(self.images[shard][row])).permute(2, 0, 1).float().div_(255)
        if self.train:
            if torch.rand(()).item() < 0.5:
                img = img.flip(-1)
            dx, dy = torch.randint(-4, 5, (2,)).tolist()
            img = torch.roll(img, shifts=(dy, dx), dims=(1, 2))
        img = (img - MEAN) / STD
        return img, int(self.labels[shard][row])
