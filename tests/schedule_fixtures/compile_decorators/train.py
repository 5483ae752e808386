import torch
import torch.nn as nn

from optim import apply


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(64, 64)

    def forward(self, x):
        return self.fc(x).relu()


def main():
    device = torch.device("cuda")
    model = Net().to(device)
    step_fn = torch.compile(mode="reduce-overhead")(model)
    for step in range(100):
        x = torch.randn(16, 64).to(device)
        loss = step_fn(x).sum()
        loss.backward()
        apply(model.parameters(), 0.01)
        model.zero_grad()
        if step % 10 == 0:
            print(loss.item())


if __name__ == "__main__":
    main()
