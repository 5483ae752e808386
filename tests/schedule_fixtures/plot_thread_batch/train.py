from threading import Thread

import numpy as np
import torch
import torch.nn as nn


def plot_images(images, fname):
    if isinstance(images, torch.Tensor):
        images = images.cpu().float().numpy()
    np.save(fname, images[:4])


def main():
    device = torch.device("cuda")
    model = nn.Conv2d(3, 8, 3).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    data = torch.utils.data.TensorDataset(torch.randn(4096, 3, 32, 32))
    loader = torch.utils.data.DataLoader(data, batch_size=8, shuffle=True, pin_memory=True)
    for ni, (imgs,) in enumerate(loader):
        imgs = imgs.to(device, non_blocking=True)
        loss = model(imgs).square().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if ni < 3:
            Thread(target=plot_images, args=(imgs, f"batch{ni}.npy"), daemon=True).start()


if __name__ == "__main__":
    main()
