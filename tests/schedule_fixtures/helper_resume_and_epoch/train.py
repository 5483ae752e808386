# validate() is called once after a resume (a checkpoint that may exist) and
# again at the end of every epoch: its reads run every epoch whatever the
# resume decides, so the rows are the epoch loop's, with no condition.
import os
import torch
import torch.nn as nn


def validate(model, loader):
    model.eval()
    tot = 0.0
    with torch.no_grad():
        for x in loader:
            x = x.cuda()
            tot += model(x).sum().item()
    model.train()
    return tot


def main():
    model = nn.Linear(4, 4).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = torch.utils.data.DataLoader(torch.randn(64, 4), batch_size=8)
    if os.path.exists("ckpt.pth"):
        model.load_state_dict(torch.load("ckpt.pth", map_location="cpu"))
        validate(model, loader)
    for epoch in range(10):
        for x in loader:
            x = x.cuda()
            loss = model(x).sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
        validate(model, loader)


main()
