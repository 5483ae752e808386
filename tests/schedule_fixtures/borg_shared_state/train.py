# A run-state class in the Borg manner (as accelerate's PartialState and
# AcceleratorState are): every instance's __dict__ is one class-level dict,
# and only the first instance initialises it.  The helper's own
# RunState(log_each_step=True) later finds the state set already, so
# log_each_step stays False and the loss is never read on the host.
import torch
import torch.nn as nn


class RunState:
    _shared_state = {}

    def __init__(self, log_each_step=False):
        self.__dict__ = self._shared_state
        if not self.initialized:
            self.log_each_step = log_each_step
            self.device = torch.device("cuda")

    @property
    def initialized(self):
        return self._shared_state != {}


class Trainer:
    def __init__(self, model):
        self.state = RunState(log_each_step=True)
        self.model = model.to(self.state.device)
        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.1)

    def train_step(self, x):
        loss = self.model(x).pow(2).mean()
        loss.backward()
        self.opt.step()
        self.opt.zero_grad()
        if self.state.log_each_step:
            print(loss.item())


state = RunState()
trainer = Trainer(nn.Linear(32, 32))
for step in range(100):
    x = torch.randn(16, 32, device=state.device)
    trainer.train_step(x)
