"""An EMA of the weights saved into a fresh model built on the host (the
form of diffusers' EMAModel.save_pretrained): the model's constructor
picks one of several embeddings from its config, which the job reads
from a file, so which one is not known -- but each is built right there,
on the host, so the fresh model's parameters are on the host whichever
it is, and copying the device-side averages into them is a copy to the
host."""
import json

import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.fc = nn.Linear(16, 16)
        if cfg["embed"] == "table":
            self.embed = nn.Embedding(10, 16)
        elif cfg["embed"] == "linear":
            self.embed = nn.Linear(1, 16)
        else:
            self.embed = nn.Identity()

    def forward(self, x):
        return self.fc(x)


class EMA:
    def __init__(self, model, cfg):
        self.shadow = [p.clone().detach() for p in model.parameters()]
        self.cfg = cfg

    def to(self, device):
        self.shadow = [p.to(device) for p in self.shadow]

    @torch.no_grad()
    def update(self, model, decay=0.999):
        for s, p in zip(self.shadow, model.parameters()):
            s.mul_(decay).add_(p, alpha=1 - decay)

    def copy_to(self, params):
        for s, p in zip(self.shadow, list(params)):
            p.data.copy_(s.to(p.device))

    def save(self, path):
        fresh = Net(self.cfg)
        self.copy_to(fresh.parameters())
        torch.save(fresh.state_dict(), path)


def main():
    with open("config.json") as f:
        cfg = json.load(f)
    model = Net(cfg)
    ema = EMA(model, cfg)
    model.cuda()
    ema.to("cuda")
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(1000):
        x = torch.randn(8, 16, device="cuda")
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema.update(model)
        if step % 100 == 0:
            ema.save("ema.pt")


if __name__ == "__main__":
    main()
