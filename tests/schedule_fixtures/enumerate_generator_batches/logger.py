"""A metric logger whose log_every wraps the loader in a generator."""
import time


class MetricLogger:
    def __init__(self):
        self.meters = {}

    def update(self, **kw):
        for k, v in kw.items():
            self.meters[k] = v

    def log_every(self, iterable, print_freq):
        i = 0
        start = time.time()
        for obj in iterable:
            yield obj
            if i % print_freq == 0:
                print(i, self.meters, time.time() - start)
            i += 1
