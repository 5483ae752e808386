"""Token batches from a flat uint16 file, the way small GPT trainers read them."""

import numpy as np
import torch


class TokenFile(torch.utils.data.Dataset):
    def __init__(self, path, block_size):
        self.tokens = np.memmap(path, dtype=np.uint16, mode="r")
        self.block_size = block_size

    def __len__(self):
        return len(self.tokens) - self.block_size - 1

    def __getitem__(self, i):
        chunk = torch.from_numpy(self.tokens[i:i + self.block_size + 1].astype(np.int64))
        return chunk[:-1], chunk[1:]


def make_loader(path, block_size, batch_size, num_workers=2):
    ds = TokenFile(path, block_size)
    return torch.utils.data.DataLoader(
        ds, batch_size=batch_size, shuffle=True, num_workers=num_workers,
        pin_memory=True, drop_last=True, persistent_workers=num_workers > 0,
    )
