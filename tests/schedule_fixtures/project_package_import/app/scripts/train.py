# A job in a sub-project (app/, with its own setup.py) importing that
# project's package (app/mypkg): installed with `pip install -e .`, the
# package is found from the script's directory (app/scripts) as Python
# finds it, and its helpers' events are the job's.
import torch
import torch.nn as nn

from mypkg.util import log_loss, to_device


def main():
    device = torch.device("cuda")
    model = nn.Linear(16, 4).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(1000):
        batch = {"x": torch.randn(8, 16)}
        batch = to_device(batch, device)
        loss = model(batch["x"]).pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()
        log_loss(step, loss)


if __name__ == "__main__":
    main()
