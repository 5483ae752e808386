# Library calls that copy device tensors to the host or the host to the
# device, read from what the libraries document: torchvision's
# to_pil_image of a device tensor (its .cpu().numpy()), Accelerator.save
# (torch.save on the main process), and clean-fid's InceptionV3W, an
# nn.Module loaded on the host and moved with .to(device).
import torch
import torch.nn as nn
from accelerate import Accelerator
from cleanfid.inception_torchscript import InceptionV3W
from torchvision.transforms import functional as TF


def main():
    accelerator = Accelerator()
    device = accelerator.device
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 3 * 8 * 8))
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    model, optimizer = accelerator.prepare(model, optimizer)
    extractor = InceptionV3W("/tmp/inception", resize_inside=False).to(device)
    for step in range(10000):
        x = torch.randn(8, 32, device=device)
        loss = model(x).pow(2).mean()
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
        if step % 100 == 0:
            with torch.no_grad():
                grid = model(x)[0].view(3, 8, 8).clamp(0, 1)
            TF.to_pil_image(grid).save(f"sample_{step}.png")
        if step % 1000 == 0:
            accelerator.save({"model": model.state_dict()}, f"ckpt_{step}.pt")


if __name__ == "__main__":
    main()
