import torch
import torch.nn as nn


def test(model, x, y, mask):
    model.eval()
    with torch.no_grad():
        out = model(x)[mask]
        loss = nn.functional.cross_entropy(out, y[mask])
    return loss.item()


def teacher_targets(teacher, x):
    with torch.no_grad():
        t = teacher(x)
    return t.softmax(-1), t.std().item()


def main():
    device = torch.device("cuda")
    x = torch.randn(100, 8).to(device)
    y = torch.randint(0, 4, (100,)).to(device)
    idx = torch.randperm(100).to(device)
    train_mask, val_mask = idx[:80], idx[80:]
    model = nn.Linear(8, 4).to(device)
    teacher = nn.Linear(8, 4).to(device)
    teacher.eval()
    opt = torch.optim.Adam(model.parameters())
    for epoch in range(50):
        model.train()
        target, spread = teacher_targets(teacher, x)
        loss = nn.functional.cross_entropy(model(x)[train_mask], target[train_mask])
        opt.zero_grad()
        loss.backward()
        opt.step()
        val = test(model, x, y, val_mask)
        print(epoch, spread, val)


if __name__ == "__main__":
    main()
