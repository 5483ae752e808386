import torch
import torch.nn as nn


def best_device():
    if torch.cuda.device_count() > 0:
        return "cuda"
    return "cpu"


def main():
    device = best_device()
    ckpt = torch.load("model.pt", map_location=device)
    model = nn.Linear(8, 4)
    model.load_state_dict(ckpt["model"])
    model.to(device)
    with torch.no_grad():
        for step in range(10):
            x = torch.randn(2, 8).to(device)
            y = model(x)
            print(y.sum().item())


if __name__ == "__main__":
    main()
