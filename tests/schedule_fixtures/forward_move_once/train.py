"""A module keeps tables on the CPU as plain attributes (not buffers, so
model.to(device) leaves them there).  Its forward moves three of them to the
input's device and stores them back in their place: the first call copies,
every later one finds them there (frequency once).  One is a tensor, the
other a list of tensors moved in a comprehension, a third a mean cast by
type_as(x) (its type name holds the device).  A look-alike moves a
fourth table into a local name every call, so it copies every step."""
import torch
import torch.nn as nn


class Rotary(nn.Module):
    def __init__(self, dim=16, n=64):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.freqs = torch.outer(torch.arange(n).float(), torch.ones(dim))
        self.cells = [torch.ones(dim), torch.zeros(dim)]
        self.table = torch.linspace(0.0, 1.0, dim)
        self.mean = torch.zeros(1, dim)

    def forward(self, x):
        self.freqs = self.freqs.to(x.device)
        self.cells = [c.to(device=x.device) for c in self.cells]
        self.mean = self.mean.type_as(x)
        table = self.table.to(x.device)
        h = self.proj(x - self.mean) + self.freqs[: x.shape[0]]
        return h * self.cells[0] + self.cells[1] + table


def main():
    device = torch.device("cuda")
    model = Rotary().to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for step in range(500):
        x = torch.randn(32, 16, device=device)
        loss = model(x).pow(2).mean()
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
