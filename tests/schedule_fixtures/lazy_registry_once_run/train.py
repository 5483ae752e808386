# Experiment-runner layout (Time-Series-Library's run.py / exp/): the model
# class found by a dict subclass whose __getitem__ imports the module a
# scan of models/ named, the run repeated --itr times (given 1), a
# checkpoint saved each epoch and read back after training, then a test
# pass that reads every 20th batch.
import argparse
import importlib
import os

import torch


class LazyModels(dict):
    def __init__(self, model_map):
        self.model_map = model_map
        super().__init__()

    def __getitem__(self, key):
        if key in self:
            return super().__getitem__(key)
        if key not in self.model_map:
            raise NotImplementedError(key)
        module = importlib.import_module(self.model_map[key])
        model_class = module.Model
        self[key] = model_class
        return model_class


def scan_models():
    model_map = {}
    for filename in os.listdir('models'):
        if filename.endswith('.py') and filename != '__init__.py':
            name = filename[:-3]
            model_map[name] = f"models.{name}"
    return model_map


class Experiment:
    def __init__(self, args):
        self.args = args
        self.models = LazyModels(scan_models())
        self.device = torch.device('cuda:0')
        self.model = self.models[args.model](args).to(self.device)

    def train(self, path):
        opt = torch.optim.SGD(self.model.parameters(), lr=0.1)
        data = [(torch.randn(8, 4), torch.randn(8, 2)) for _ in range(50)]
        for epoch in range(args.epochs):
            for i, (x, y) in enumerate(data):
                x = x.to(self.device)
                y = y.to(self.device)
                loss = ((self.model(x) - y) ** 2).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
            torch.save(self.model.state_dict(), path)
        self.model.load_state_dict(torch.load(path))

    def test(self):
        data = [torch.randn(8, 4) for _ in range(60)]
        with torch.no_grad():
            for i, x in enumerate(data):
                x = x.to(self.device)
                out = self.model(x)
                if i % 20 == 0:
                    print(out.cpu())


parser = argparse.ArgumentParser()
parser.add_argument('--model', type=str, default='Linear')
parser.add_argument('--itr', type=int, default=1)
parser.add_argument('--epochs', type=int, default=5)
args = parser.parse_args()
for ii in range(args.itr):
    exp = Experiment(args)
    exp.train('checkpoint.pth')
    exp.test()
