"""A regression net with three loss terms whose running means are kept in
one device tensor; after each epoch the means and the learning rate are
appended to a results file by str formatting of list(mloss).

    python train.py
"""
import torch
import torch.nn as nn


def main():
    device = torch.device("cuda")
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 3)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(20):
        mloss = torch.zeros(3, device=device)
        for i in range(200):
            x = torch.randn(64, 32, device=device)
            y = torch.randn(64, 3, device=device)
            terms = ((model(x) - y) ** 2).mean(0)
            opt.zero_grad()
            terms.sum().backward()
            opt.step()
            mloss = (mloss * i + terms.detach()) / (i + 1)
        vals = list(mloss) + [opt.param_groups[0]["lr"]]
        n = len(vals) + 1
        with open("results.csv", "a") as f:
            f.write(("%12.5g," * n % (epoch, *vals)).rstrip(",") + "\n")
        names = [f"loss{k}" for k in range(3)]
        row = dict(zip(names, vals))
        print(len(row))


if __name__ == "__main__":
    main()
