"""A latent-diffusion trainer (DiT-style): a frozen VAE loaded with the
library's from_pretrained (on the host) and moved to the GPU once; its
class name says Autoencoder, not Model.  The noise scheduler is no
module: its .to() is not called and it holds no parameters."""
import torch
import torch.nn as nn
from diffusers import DDPMScheduler
from diffusers.models import AutoencoderKL

device = "cuda"
vae = AutoencoderKL.from_pretrained("stabilityai/sd-vae-ft-ema").to(device)
scheduler = DDPMScheduler.from_pretrained("CompVis/ldm", subfolder="scheduler")
model = nn.Conv2d(4, 4, 3, padding=1).to(device)
opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
for step in range(1000):
    x = torch.randn(8, 3, 256, 256, device=device)
    with torch.no_grad():
        latents = vae.encode(x).latent_dist.sample().mul_(0.18215)
    loss = model(latents).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
