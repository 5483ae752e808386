"""A training loop that counts images, not steps: the state's counter is
advanced by the batch size (2048) once a pass, and the status and snapshot
tests compare it with intervals in images -- `state.cur_nimg % STATUS_NIMG
== 0` holds every 131072 / 2048 = 64 passes, `cur_nimg % SNAPSHOT_NIMG
== 0` every 8388608 / 2048 = 4096 passes, not every 131072 or 8388608.

    python train.py
"""
import torch
import torch.nn as nn

BATCH_SIZE = 2048
STATUS_NIMG = 128 << 10
SNAPSHOT_NIMG = 8 << 20
TOTAL_NIMG = 64 << 20


class State:
    def __init__(self):
        self.cur_nimg = 0


def main():
    device = torch.device("cuda")
    model = nn.Linear(8, 1).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    state = State()
    cur_nimg = 0
    while True:
        if state.cur_nimg % STATUS_NIMG == 0:
            print(model.weight.sum().item())
        if cur_nimg % SNAPSHOT_NIMG == 0:
            torch.save(model.state_dict(), "snap.pt")
        if state.cur_nimg >= TOTAL_NIMG:
            break
        x = torch.randn(BATCH_SIZE, 8).to(device)
        loss = model(x).square().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        state.cur_nimg += BATCH_SIZE
        cur_nimg += BATCH_SIZE


if __name__ == "__main__":
    main()
