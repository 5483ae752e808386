"""A DataLoader over a dataset read back with torch.load (what it holds is
not in the code) whose collate_fn is an object of a class of the job's
own: its __call__ concatenates the samples' parts into a dict of two host
tensors.  The batch is that dict: the loop's to_device copies its two
tensors (two copies a step), and the model receives device tensors, so
the nonzero() on its input ids is a sync.

    python train.py
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader


class PairCollator:

    def __call__(self, data):
        batch = {}
        batch["input_ids"] = torch.cat([f[0] for f in data] + [f[2] for f in data], dim=0)
        batch["attention_mask"] = torch.cat([f[1] for f in data] + [f[3] for f in data], dim=0)
        return batch


def to_device(batch, device):
    output = {}
    for k, v in batch.items():
        output[k] = v.to(device)
    return output


class Scorer(nn.Module):

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(100, 16)
        self.head = nn.Linear(16, 1)

    def forward(self, input_ids, attention_mask):
        h = self.emb(input_ids) * attention_mask.unsqueeze(-1)
        scores = self.head(h).squeeze(-1)
        pads = (input_ids[0] == 0).nonzero()
        return scores.mean() + pads.numel()


def main():
    device = torch.device("cuda")
    dataset = torch.load("pairs.pt", weights_only=False)
    loader = DataLoader(dataset, batch_size=4, shuffle=True, collate_fn=PairCollator())
    model = Scorer().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(2):
        for batch in loader:
            batch = to_device(batch, device)
            loss = model(**batch)
            opt.zero_grad()
            loss.backward()
            opt.step()


if __name__ == "__main__":
    main()
