"""A Lightning module that optimizes by hand (automatic_optimization =
False): training_step calls manual_backward and the optimizer's step
itself, so trainer.fit runs no backward or step of its own.  Where those
run is the module's code, through Lightning methods ecg does not read:
no backward or optimizer row is stated at the fit call (a wrong anchor
would be worse than none), and the job is not typed as training from
the fit call alone."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import lightning as L
from torch.utils.data import DataLoader, TensorDataset


class ManualRegressor(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.automatic_optimization = False
        self.net = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1))

    def training_step(self, batch, batch_idx):
        opt = self.optimizers()
        x, y = batch
        loss = F.mse_loss(self.net(x), y)
        opt.zero_grad()
        self.manual_backward(loss)
        opt.step()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


def main():
    ds = TensorDataset(torch.randn(1024, 32), torch.randn(1024, 1))
    loader = DataLoader(ds, batch_size=64, shuffle=True)
    trainer = L.Trainer(max_epochs=3, accelerator="gpu", devices=1)
    trainer.fit(ManualRegressor(), loader)


if __name__ == "__main__":
    main()
