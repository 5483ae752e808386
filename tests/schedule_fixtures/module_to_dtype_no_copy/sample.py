# A model cast to bfloat16 on the host (Module.to(dtype): no copy between
# devices), then moved to the GPU once.
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 16)

    def forward(self, x):
        return self.fc(x)


def main():
    model = Net().to(torch.bfloat16)
    model = model.to("cuda")
    with torch.no_grad():
        for i in range(10):
            x = torch.randn(4, 16, device="cuda", dtype=torch.bfloat16)
            y = model(x)
            print(y.float().sum().item())


if __name__ == "__main__":
    main()
