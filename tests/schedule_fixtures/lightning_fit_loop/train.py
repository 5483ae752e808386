"""A Lightning job: the training loop is the library's.  trainer.fit runs
the module's training_step on each batch, then the loss's backward and
the optimizer step that configure_optimizers made.  The job's step is
the fit call; its model is what training_step calls.  The batch's copy
to the device and the logging are the library's: not stated."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import lightning as L
from torch.utils.data import DataLoader, TensorDataset


class LitRegressor(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1))

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.mse_loss(self.net(x), y)
        self.log("train_loss", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


def main():
    ds = TensorDataset(torch.randn(1024, 32), torch.randn(1024, 1))
    loader = DataLoader(ds, batch_size=64, shuffle=True, num_workers=2)
    trainer = L.Trainer(max_epochs=3, accelerator="gpu", devices=1)
    trainer.fit(LitRegressor(), loader)


if __name__ == "__main__":
    main()
