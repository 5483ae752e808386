import numpy as np
import torch
from torch.utils.data import Dataset


class TokenChunks(Dataset):
    """Non-overlapping windows of seq_len + 1 tokens from a uint16 file."""

    def __init__(self, path, seq_len):
        self.data = np.memmap(path, dtype=np.uint16, mode="r")
        self.seq_len = seq_len

    def __len__(self):
        return (len(self.data) - 1) // self.seq_len

    def __getitem__(self, i):
        w = torch.from_numpy(self.data[i * self.seq_len:(i + 1) * self.seq_len + 1].astype(np.int64))
        return w[:-1], w[1:]
