import torch
import torch.nn as nn


def main():
    model = nn.Linear(32, 1).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    reg_every = 16
    log_every = 4
    start = 0
    first_log = start % log_every == 0
    marks = []

    for i in range(100000):
        step = i + start
        x = torch.randn(8, 32, device="cuda")
        loss = model(x).pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()

        regularize = step % reg_every == 0
        if regularize:
            penalty = model.weight.pow(2).sum()
            print(penalty.item())

        log_now = step % log_every == 0
        if log_now and step >= 0:
            stamp = torch.tensor([step], device="cuda")
            marks.append(stamp)

        if first_log:
            print(loss.item())


if __name__ == "__main__":
    main()
