"""A Dataset whose __getitem__ moves each sample to the GPU itself, read by
a DataLoader with the default num_workers=0: the main process fetches the
batch_size=4 samples of every batch, so the copy runs 4 times a step, where
the loop takes the batch."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class TextSampler(Dataset):
    def __init__(self, data, seq_len):
        super().__init__()
        self.data = data
        self.seq_len = seq_len

    def __getitem__(self, index):
        start = torch.randint(0, self.data.size(0) - self.seq_len - 1, (1,))
        seq = self.data[start: start + self.seq_len + 1].long()
        return seq.cuda()

    def __len__(self):
        return self.data.size(0) // self.seq_len


data = torch.randint(0, 256, (100000,), dtype=torch.uint8)
loader = DataLoader(TextSampler(data, 128), batch_size=4)
model = nn.Embedding(256, 256).cuda()
opt = torch.optim.Adam(model.parameters(), lr=1e-4)
for epoch in range(3):
    for batch in loader:
        loss = model(batch).logsumexp(-1).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
