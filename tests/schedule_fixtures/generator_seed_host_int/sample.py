# A CPU generator draws a fresh seed for each sample: Generator.seed()
# returns a Python int, so printing it reads nothing from the device.
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 16)

    def forward(self, x):
        return self.fc(x)


def main():
    model = Net().cuda()
    rng = torch.Generator(device="cpu")
    with torch.no_grad():
        for i in range(4):
            seed = rng.seed()
            print(f"Generating with seed {seed}")
            x = torch.randn(1, 16, generator=torch.Generator(device="cpu").manual_seed(seed)).cuda()
            print(model(x).sum().item())


if __name__ == "__main__":
    main()
