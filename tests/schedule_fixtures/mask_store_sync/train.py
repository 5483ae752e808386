"""Image features scattered into the token embeddings at the image-token
positions through a boolean mask: `out[mask] = feats.view(-1, d)` on a
device tensor is index_put_ with a mask, which torch turns into indices
with nonzero -- their count is read on the host, a sync in every forward.
Storing one Python number through a mask is masked_fill_: nothing read.

    python train.py
"""
import torch
import torch.nn as nn


class Fuse(nn.Module):

    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(100, 16)
        self.img = nn.Linear(8, 16)
        self.head = nn.Linear(16, 1)

    def splice(self, ids, h, feats):
        out = h.clone()
        mask = ids == 7
        out[mask] = feats.view(-1, 16).to(out.dtype)
        return out

    def forward(self, ids, images):
        h = self.tok(ids)
        feats = self.img(images)
        h = self.splice(ids, h, feats)
        h[ids == 0] = 0.0
        return self.head(h).mean()


def main():
    device = torch.device("cuda")
    model = Fuse().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        ids = torch.randint(0, 100, (4, 32), device=device)
        images = torch.randn(4, 8, device=device)
        loss = model(ids, images)
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
