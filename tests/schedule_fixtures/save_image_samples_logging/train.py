import torch
import torch.nn as nn
import torchvision.utils as vutils

device = torch.device("cuda")
netG = nn.Sequential(nn.Linear(16, 3 * 8 * 8), nn.Tanh()).to(device)
opt = torch.optim.Adam(netG.parameters(), lr=1e-3)
fixed_noise = torch.randn(16, 16, device=device)

for epoch in range(5):
    for i in range(1000):
        noise = torch.randn(32, 16, device=device)
        loss = netG(noise).pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()
        if i % 100 == 0:
            fake = netG(fixed_noise).view(16, 3, 8, 8)
            vutils.save_image(fake.detach(), "fake_samples_epoch_%03d.png" % epoch, normalize=True)
    torch.save(netG.state_dict(), "netG_epoch_%d.pth" % epoch)
