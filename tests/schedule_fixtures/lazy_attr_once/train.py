# `if self.X is None: self.X = <an object>` in a method called every step
# runs its branch at the first call only (a lazy start, as accelerate's
# check_trigger makes its flag tensor); a class that sets X back to None
# runs it again each time.
import torch


class Trigger:
    def __init__(self, device):
        self.device = device
        self.flag = None

    def set(self):
        self.flag = torch.tensor(1, device=self.device)

    def check(self):
        if self.flag is None:
            self.flag = torch.tensor(0, device=self.device)
        return self.flag.item() >= 1


class Scratch:
    def __init__(self, device):
        self.device = device
        self.buf = None

    def use(self):
        if self.buf is None:
            self.buf = torch.tensor([1.0, 2.0], device=self.device)
        out = self.buf.sum()
        self.buf = None
        return out


def main():
    device = torch.device("cuda")
    model = torch.nn.Linear(4, 2).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    trig = Trigger(device)
    scratch = Scratch(device)
    for step in range(100):
        x = torch.randn(8, 4, device=device)
        loss = model(x).sum() + scratch.use()
        loss.backward()
        opt.step()
        opt.zero_grad()
        if trig.check():
            break


main()
