# The phase of a row in a periodic block is that block's own work, not the
# work of a periodic block nested in it: the accumulation boundary's loss
# read is logging, though the boundary block also holds the evaluation
# (the form of jeonsworld/ViT-pytorch's train loop).
import torch
from torch.utils.data import DataLoader, TensorDataset


def valid(model, loader, device):
    model.eval()
    correct = 0
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        with torch.no_grad():
            pred = model(x).argmax(-1)
        correct += (pred == y).sum().item()
    return correct


def main():
    device = torch.device("cuda")
    model = torch.nn.Linear(16, 4).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    data = TensorDataset(torch.randn(512, 16), torch.randint(0, 4, (512,)))
    train_loader = DataLoader(data, batch_size=32)
    test_loader = DataLoader(data, batch_size=64)
    accum, eval_every = 2, 100
    for epoch in range(10):
        model.train()
        for step, (x, y) in enumerate(train_loader):
            x, y = x.to(device), y.to(device)
            loss = torch.nn.functional.cross_entropy(model(x), y) / accum
            loss.backward()
            if (step + 1) % accum == 0:
                print(loss.item() * accum)
                opt.step()
                opt.zero_grad()
                if (step + 1) % eval_every == 0:
                    print(valid(model, test_loader, device))
                    model.train()


main()
