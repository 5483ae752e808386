import torch
import torch.nn as nn
from torchvision import utils


def main():
    device = "cuda"
    model = nn.Sequential(nn.Linear(16, 3 * 8 * 8), nn.Sigmoid()).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(1, 10001):
        z = torch.randn(32, 16, device=device)
        loss = model(z).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()
        if step % 1000 == 0:
            with torch.no_grad():
                images = model(torch.randn(16, 16, device=device)).view(16, 3, 8, 8)
            utils.save_image(images, f"sample-{step}.png", nrow=4)
    utils.save_image(torch.rand(4, 3, 8, 8), "noise.png")


if __name__ == "__main__":
    main()
