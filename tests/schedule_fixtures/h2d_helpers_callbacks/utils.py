"""Helpers the step calls: a batch moved by a comprehension, a trainer
that calls back into the job after each step."""
from collections import defaultdict

import torch


def move_targets(targets, device):
    # a list of per-sample dicts of host tensors, each entry copied
    return [{k: v.to(device) for k, v in t.items()} for t in targets]


class Trainer:
    def __init__(self, model, loader, device):
        self.model = model
        self.loader = loader
        self.device = device
        self.callbacks = defaultdict(list)
        self.iter_num = 0
        self.loss = None

    def add_callback(self, event, fn):
        self.callbacks[event].append(fn)

    def trigger(self, event):
        for fn in self.callbacks.get(event, []):
            fn(self)

    def run(self, opt, criterion):
        for images, targets in self.loader:
            images = images.to(self.device)
            targets = move_targets(targets, self.device)
            out = self.model(images)
            self.loss = criterion(out, targets)
            opt.zero_grad()
            self.loss.backward()
            opt.step()
            self.trigger("on_batch_end")
            self.iter_num += 1
