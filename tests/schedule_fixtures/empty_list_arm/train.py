"""A list a loop of unknown trip count fills, tested for emptiness by a
conditional expression whose test the code does not decide: in the arm
where the test says the list is empty, `torch.tensor(coefs, device=...)`
makes an empty tensor and copies nothing.  The other factory, on a list
that is not known to be empty, is a copy of host data every step."""
import torch
import torch.nn as nn


def coefficients(order, h, device):
    coefs = []
    for i in range(1, order + 1):
        coefs.append(h / i)
    coefs = torch.stack(coefs) if len(coefs) > 0 else torch.tensor(coefs, device=device)
    return coefs


def main():
    device = torch.device("cuda")
    with open("order.txt") as fh:
        order = int(fh.read())
    model = nn.Linear(32, 1).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=1e-3)
    for step in range(1000):
        x = torch.randn(64, 32, device=device)
        h = torch.ones((), device=device)
        c = coefficients(order, h, device)
        w = torch.tensor([0.5, 0.25], device=device)
        loss = (model(x) * c.sum() * w.sum()).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
