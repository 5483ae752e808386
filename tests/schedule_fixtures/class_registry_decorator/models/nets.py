import torch
import torch.nn as nn

from . import registry


@registry.register_model(name="mlp")
class MLP(nn.Module):
  def __init__(self, width):
    super().__init__()
    self.fc1 = nn.Linear(width, width)
    self.fc2 = nn.Linear(width, width)

  def forward(self, x):
    return self.fc2(torch.relu(self.fc1(x)))


@registry.register_model
class Gated(nn.Module):
  def __init__(self, width):
    super().__init__()
    self.gate = nn.Linear(width, width)
    self.register_buffer("scale", torch.ones(width))

  def forward(self, x):
    g = torch.sigmoid(self.gate(x))
    if g.max() > 0.99:
      g = g.clamp(max=0.99)
    return x * g * self.scale
