# Host reads stored into local names that the function reads only to log
# them (a histogram of the outputs printed at the end, the loss kept for the
# progress line) are the log's work, as reads in print()'s own arguments
# are.  A count the function returns is not: its read stays the step's.
import torch
import torch.nn as nn


def train_epoch(model, opt, loader):
    seen = 0
    bins = {i: 0 for i in range(10)}
    for x in loader:
        x = x.cuda()
        out = model(x)
        loss = out.pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        for t in out[:, 0].sigmoid():
            bins[int(t * 9)] += 1
        lossf = loss.item()
        seen += int((out > 0).sum())
        print(f"loss {lossf:.3f}")
    print({k: v for k, v in bins.items()})
    return seen


def main():
    model = nn.Linear(4, 4).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = torch.utils.data.DataLoader(torch.randn(64, 4), batch_size=8)
    total = 0
    for epoch in range(3):
        total += train_epoch(model, opt, loader)
    return total


main()
