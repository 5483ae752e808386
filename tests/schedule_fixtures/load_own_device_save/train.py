import torch
import torch.nn as nn


def evaluate(model, data):
    with torch.no_grad():
        return model(data).pow(2).mean().item()


def main():
    model = nn.Linear(8, 8)
    model.load_state_dict(torch.load("init.pt"))
    model = model.cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    data = torch.randn(16, 8).cuda()
    torch.save(torch.randn(4), "noise.pt")
    best = None
    for epoch in range(10):
        loss = model(data).pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()
        val = evaluate(model, data)
        if best is None or val < best:
            with open("best.pt", "wb") as f:
                torch.save(model, f)
            best = val
    with open("best.pt", "rb") as f:
        model = torch.load(f)
    noise = torch.load("noise.pt")
    print(evaluate(model, data), noise.sum())


if __name__ == "__main__":
    main()
