"""Pre-tokenised documents packed into fixed-length rows (uint32 .bin shards)."""
import glob
import os

import numpy as np
import torch
from torch.utils.data import Dataset


class PackedTokens(Dataset):
    def __init__(self, root, seq_len):
        self.shards = [np.memmap(f, dtype=np.uint32, mode="r") for f in sorted(glob.glob(os.path.join(root, "*.bin")))]
        self.seq_len = seq_len
        self.rows = [(len(s) - 1) // seq_len for s in self.shards]
        self.starts = np.cumsum([0] + self.rows)

    def __len__(self):
        return int(self.starts[-1])

    def __getitem__(self, i):
        shard = int(np.searchsorted(self.starts, i, side="right")) - 1
        off = (i - self.starts[shard]) * self.seq_len
        row = torch.from_numpy(self.shards[shard][off:off + self.seq_len + 1].astype(np.int64))
        return {"input_ids": row[:-1], "labels": row[1:]}
