import torch
import torch.nn as nn
from torch.utils import data


class Fetcher:
    def __init__(self, loader, latent_dim):
        self.loader = loader
        self.latent_dim = latent_dim
        self.device = torch.device('cuda')

    def _fetch(self):
        try:
            x, y = next(self.iter)
        except (AttributeError, StopIteration):
            self.iter = iter(self.loader)
            x, y = next(self.iter)
        return x, y

    def __next__(self):
        x, y = self._fetch()
        z = torch.randn(x.size(0), self.latent_dim)
        inputs = {"x": x, "y": y, "z": z}
        return {k: v.to(self.device) for k, v in inputs.items()}


def main():
    ds = data.TensorDataset(torch.randn(512, 16), torch.randint(0, 2, (512,)))
    loader = data.DataLoader(ds, batch_size=8, shuffle=True, pin_memory=True, drop_last=True)
    model = nn.Linear(32, 2).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    fetcher = Fetcher(loader, 16)
    for step in range(1000):
        inputs = next(fetcher)
        out = model(torch.cat([inputs["x"], inputs["z"]], dim=1))
        loss = nn.functional.cross_entropy(out, inputs["y"])
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 100 == 0:
            print(step, loss.item())


if __name__ == "__main__":
    main()
