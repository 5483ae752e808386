# Sampling with einops: rearrange/repeat of a device tensor stay on the
# device (no copy at their .to), of a host tensor stay on the host (their
# .to(device) is a copy), and rearrange of a numpy array is no tensor.
import numpy as np
import torch
import torch.nn as nn
from einops import rearrange, repeat


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 16)

    def forward(self, x, ids):
        return self.fc(x) + ids


def main():
    device = torch.device("cuda")
    model = Net().to(device)
    with torch.no_grad():
        for i in range(100):
            x = torch.randn(2, 4, 4, device=device)
            img = rearrange(x, "b h w -> b (h w)")
            ids = torch.zeros(4, 4)
            ids = repeat(ids, "h w -> b (h w)", b=2)
            img = img.to(device)
            ids = ids.to(device)
            out = model(img, ids)
            pic = rearrange(out, "b (h w) -> b h w", h=4)
            arr = pic.cpu().numpy()
            flat = rearrange(arr, "b h w -> b (h w)")
            print(flat.shape)


if __name__ == "__main__":
    main()
