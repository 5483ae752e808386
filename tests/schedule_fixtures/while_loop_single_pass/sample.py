# A sampling CLI whose image loop is interactive only with --loop: run for
# one prompt, the `while opts is not None:` loop makes one image (its pass
# sets opts to None), so the step is the denoising loop inside it.
import argparse

import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 16)

    def forward(self, x, t):
        return self.fc(x) * t


class Options:
    def __init__(self, prompt, steps):
        self.prompt = prompt
        self.steps = steps


def denoise(model, img, steps):
    t = torch.full((img.shape[0], 1), 1.0, device=img.device)
    for i in range(steps):
        img = img - model(img, t) / steps
    return img


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--loop", action="store_true")
    parser.add_argument("--prompt", default="a cat")
    args = parser.parse_args()
    model = Net().cuda()
    opts = Options(args.prompt, 4)
    with torch.no_grad():
        while opts is not None:
            x = torch.randn(1, 16).cuda()
            x = denoise(model, x, opts.steps)
            print(x.cpu().numpy().shape)
            if args.loop:
                opts.prompt = input("next prompt: ")
            else:
                opts = None


if __name__ == "__main__":
    main()
