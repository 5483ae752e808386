import os

import torch
import torch.nn as nn
import torch.nn.functional as F


def sample_affine(size, device="cpu"):
    G = torch.eye(3, device=device).unsqueeze(0).repeat(size, 1, 1)
    theta = torch.empty(size, device=device).uniform_(-0.1, 0.1)
    G[:, 0, 2] = theta
    return G


def get_padding(G, width):
    device = G.device
    corners = torch.tensor([(-width, 1.0, 1.0), (width, 1.0, 1.0)], device=device)
    pad = (G[:, :2, :] @ corners.T).abs().max()
    return pad.ceil().to(torch.int32)


def augment(img):
    G = torch.inverse(sample_affine(img.shape[0]))
    pad = get_padding(G, img.shape[3])
    shift = pad.item()
    theta = G[:, :2, :].to(img)
    grid = F.affine_grid(theta, list(img.shape), align_corners=False)
    return F.grid_sample(img, grid, align_corners=False), shift


def main():
    model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.Flatten(), nn.LazyLinear(1)).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    batch = len(os.listdir("data"))
    for step in range(1000):
        img = torch.randn(batch, 3, 16, 16, device="cuda")
        img, shift = augment(img)
        scale = torch.tensor([1.0 + shift], device=img.device)
        loss = (model(img) * scale).pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
