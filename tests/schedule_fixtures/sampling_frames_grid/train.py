# Rectified-flow style sampling after each epoch: a list of frames grown in
# a sampling loop (its body calls the model, so ecg reads it once), each
# frame tiled with torchvision's make_grid on the device and copied to the
# host for a GIF.
import numpy as np
import torch
import torch.nn as nn
from torchvision.utils import make_grid


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 16)

    def forward(self, x):
        return self.fc(x)


def sample(model, z, steps=25):
    frames = [z]
    count = 0
    for i in range(steps, 0, -1):
        z = z - model(z) / steps
        frames.append(z)
        count += 1
    return frames, count


def main():
    model = Net().cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(10):
        for _ in range(100):
            x = torch.randn(8, 16, device="cuda")
            loss = model(x).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            frames, count = sample(model, torch.randn(4, 16, device="cuda"))
            gif = []
            for frame in frames:
                grid = make_grid(frame.view(4, 1, 4, 4), nrow=2)
                img = grid.permute(1, 2, 0).cpu().numpy()
                gif.append((img * 255).astype(np.uint8))
            host = torch.zeros(4, 16)
            tiles = make_grid(host.view(4, 1, 4, 4), nrow=2)
            arr = tiles.permute(1, 2, 0).cpu().numpy()
            if count > 3:
                print(len(gif), arr.shape)
        model.train()


if __name__ == "__main__":
    main()
