import numbers

import torch


def period(n):
    # an int is a numbers.Integral: the count as given, no host read
    if isinstance(n, numbers.Integral):
        return n
    return int(n.item())


def main():
    model = torch.nn.Linear(8, 8).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    every = period(10)
    for step in range(100):
        x = torch.randn(4, 8, device="cuda")
        loss = model(x).pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()
        if step % every == 0:
            print(step, loss.item())


if __name__ == "__main__":
    main()
