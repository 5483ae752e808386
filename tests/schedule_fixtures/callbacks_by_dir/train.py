"""A regression net whose logger's methods are registered as hooks by
name: every method of the Loggers object that is callable and not a
dunder (dir() of it, getattr by each name) becomes the action of the
hook of that name; the training loop fires the hooks by name.

    python train.py
"""
import torch
import torch.nn as nn


def methods(instance):
    return [f for f in dir(instance) if callable(getattr(instance, f)) and not f.startswith("__")]


class Callbacks:
    def __init__(self):
        self._callbacks = {
            "on_train_start": [],
            "on_train_batch_end": [],
            "on_fit_epoch_end": [],
        }

    def register_action(self, hook, name="", callback=None):
        assert hook in self._callbacks, f"hook '{hook}' not found"
        assert callable(callback), f"callback '{callback}' is not callable"
        self._callbacks[hook].append({"name": name, "callback": callback})

    def run(self, hook, *args, **kwargs):
        assert hook in self._callbacks, f"hook '{hook}' not found"
        for logger in self._callbacks[hook]:
            logger["callback"](*args, **kwargs)


class Loggers:
    def __init__(self, path, plots=True):
        self.path = path
        self.plots = plots
        self.keys = ["train/loss", "x/lr0"]

    @property
    def remote_dataset(self):
        return None

    def on_train_start(self):
        print("start")

    def on_train_batch_end(self, ni, imgs):
        if self.plots and ni < 3:
            grid = imgs.cpu().numpy()
            print(grid.shape)

    def on_fit_epoch_end(self, vals, epoch):
        x = dict(zip(self.keys, vals))
        with open(self.path, "a") as f:
            f.write(("%20.5g," * (len(vals) + 1) % tuple([epoch] + vals)).rstrip(",") + "\n")
        return x


def main():
    device = torch.device("cuda")
    callbacks = Callbacks()
    loggers = Loggers("results.csv")
    for k in methods(loggers):
        callbacks.register_action(k, callback=getattr(loggers, k))

    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    callbacks.run("on_train_start")
    nb = 100
    for epoch in range(10):
        mloss = torch.zeros(3, device=device)
        for i in range(nb):
            ni = i + nb * epoch
            x = torch.randn(64, 32, device=device)
            y = torch.randn(64, 1, device=device)
            loss = nn.functional.mse_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            mloss = (mloss * i + loss.detach()) / (i + 1)
            callbacks.run("on_train_batch_end", ni, x)
        callbacks.run("on_fit_epoch_end", list(mloss), epoch)


if __name__ == "__main__":
    main()
