# The step calls routines that run a model and train nothing themselves: a
# loss routine of a plain object (a diffusion schedule's losses(model, x, t),
# whose helper copies a numpy schedule array to the device), and a teacher
# pass under no_grad whose centre module sums its output over the ranks.
# Their work is the forward's.  train_step, which also does the backward and
# the optimizer step, is no such routine: its batch copy stays the data hop,
# its read of the loss after the backward the step's.
import numpy as np
import torch
import torch.distributed as dist
import torch.nn as nn


def extract(arr, t):
    return torch.from_numpy(arr).to(device=t.device)[t].float()


class Schedule:
    def __init__(self, n):
        self.alphas = np.linspace(0.1, 0.9, n)

    def losses(self, model, x, t):
        a = extract(self.alphas, t)
        out = model(x * a[:, None])
        return ((out - x) ** 2).mean()


class Centre(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("c", torch.zeros(1, 4))

    @torch.no_grad()
    def update(self, y):
        s = y.sum(0, keepdim=True)
        dist.all_reduce(s)
        self.c = 0.9 * self.c + 0.1 * s


def train_step(model, teacher, centre, sched, opt, batch):
    x = batch.cuda()
    t = torch.randint(0, 10, (x.shape[0],), device="cuda")

    def teacher_pass():
        with torch.no_grad():
            y = teacher(x)
        centre.update(y)
        return y

    teacher_pass()
    loss = sched.losses(model, x, t)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


def main():
    dist.init_process_group("nccl")
    model = nn.Linear(4, 4).cuda()
    teacher = nn.Linear(4, 4).cuda()
    centre = Centre().cuda()
    sched = Schedule(10)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = torch.utils.data.DataLoader(torch.randn(64, 4), batch_size=8)
    for x in loader:
        train_step(model, teacher, centre, sched, opt, x)


main()
