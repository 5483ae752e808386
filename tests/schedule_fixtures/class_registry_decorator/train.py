import argparse

import torch

from models import nets  # noqa: F401  (registers the model classes)
from models import registry


def main():
  p = argparse.ArgumentParser()
  p.add_argument("--model", default="mlp")
  p.add_argument("--width", type=int, default=64)
  p.add_argument("--steps", type=int, default=1000)
  args = p.parse_args()
  model = registry.create_model(args.model, args.width, "cuda")
  opt = torch.optim.SGD(model.parameters(), lr=0.1)
  for step in range(args.steps):
    x = torch.randn(16, args.width, device="cuda")
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0:
      print(loss.item())


if __name__ == "__main__":
  main()
