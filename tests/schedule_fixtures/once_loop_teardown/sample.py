import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 8)

    def forward(self, x):
        return self.lin(x)


def mark(image):
    arr = image.cpu().numpy()
    arr = arr * 0.5
    return torch.from_numpy(arr).to(image.device)


@torch.inference_mode()
def main():
    device = torch.device("cuda")
    model = Net().to(device)
    judge = Net().to(device)
    prompts = ["a cat"]
    for prompt in prompts:
        x = torch.randn(4, 8, device=device)
        for t in range(10):
            x = model(x)
        x = mark(x)
        score = judge(x).mean().item()
        print(prompt, score)


if __name__ == "__main__":
    main()
