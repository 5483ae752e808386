# x[rows, mask] = 1.0: one Python number stored, but beside the boolean
# mask stands an integer index tensor, so torch cannot take masked_fill_
# (canDispatchToMaskedFill wants the mask as the only tensor index):
# index_put_ turns the mask into indices with nonzero -- a host read.
# The mask alone with a slice beside it (x[:, mask] = 0.0) is
# masked_fill_: nothing read.
import torch
import torch.nn as nn


class Matcher(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(16, 8)

    def forward(self, x):
        cost = self.proj(x)
        match = torch.zeros_like(cost)
        crowded = cost.sum(0) > 0
        _, best = torch.min(cost, dim=0)
        match[best, crowded] = 1.0
        match[:, crowded] = 0.0
        return (cost * match).sum()


def main():
    model = Matcher().cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        x = torch.randn(8, 16, device="cuda")
        loss = model(x)
        loss.backward()
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
