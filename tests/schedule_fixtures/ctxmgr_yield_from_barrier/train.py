# A process-state object lets the main process go first: its context
# manager delegates with `yield from` to a generator that waits before the
# yield on the other processes and after it on the main one; the
# training object's own context manager wraps it in `with ...: yield`.
# Each process waits at the barrier once, around the dataset preparation.
import os
from contextlib import contextmanager

import torch
import torch.distributed as dist


class State:
    def __init__(self):
        dist.init_process_group("nccl")
        self.rank = dist.get_rank()
        self.device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))

    def wait_for_everyone(self):
        dist.barrier()

    def _goes_first(self, is_main):
        if not is_main:
            self.wait_for_everyone()
        yield
        if is_main:
            self.wait_for_everyone()

    @contextmanager
    def main_process_first(self):
        yield from self._goes_first(self.rank == 0)


class Trainer:
    def __init__(self):
        self.state = State()

    @contextmanager
    def main_process_first(self):
        with self.state.main_process_first():
            yield


def main():
    trainer = Trainer()
    with trainer.main_process_first():
        data = [torch.randn(4) for _ in range(8)]
    model = torch.nn.Linear(4, 1).to(trainer.state.device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(10):
        x = data[step % 8].to(trainer.state.device)
        model(x).sum().backward()
        opt.step()
        opt.zero_grad()


main()
