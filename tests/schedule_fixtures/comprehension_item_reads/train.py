# Loss terms read to the host by comprehensions over a dict of two device
# scalars: each comprehension reads every item, so each read runs twice a
# step; a filtered one reads only the items its test keeps.
import torch
import torch.nn as nn


def main():
    model = nn.Linear(4, 4).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        x = torch.randn(2, 4, device="cuda")
        out = model(x)
        losses = {"a": out.sum(), "b": out.mean()}
        loss = losses["a"] + losses["b"]
        opt.zero_grad()
        loss.backward()
        opt.step()
        logged = {k: v.item() for k, v in losses.items()}
        values = [v.item() for v in losses.values()]
        picked = [v.item() for v in losses.values() if v.requires_grad]
        host = [float(v) for v in logged.values()]
        print(logged, values, picked, host)


if __name__ == "__main__":
    main()
