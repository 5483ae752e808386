import torch
import torch.nn as nn
from dataclasses import dataclass


@dataclass
class State:
    step: int
    acc_step: int


def every_n_steps(state, freq, acc_step=None, acc_freq=None):
    test = state.step % freq == 0
    if acc_step is not None:
        test = test and (state.acc_step == acc_step)
    elif acc_freq is not None:
        test = test and ((state.acc_step % acc_freq) == 0)
    return test


model = nn.Linear(32, 32).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
state = State(step=0, acc_step=0)
while state.step < 1000:
    x = torch.randn(16, 32, device="cuda")
    loss = model(x).pow(2).mean()
    loss.backward()
    opt.step()
    opt.zero_grad()
    state.step += 1
    if every_n_steps(state, 10, acc_step=0):
        print(loss.item())
    if every_n_steps(state, 100, acc_step=0):
        torch.save(model.state_dict(), "model.pt")
