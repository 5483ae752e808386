import torch

_MODELS = {}


def register_model(cls=None, *, name=None):
  """Files a model class under its name (or the one given)."""

  def _register(cls):
    local_name = cls.__name__ if name is None else name
    if local_name in _MODELS:
      raise ValueError(f"Already registered model with name: {local_name}")
    _MODELS[local_name] = cls
    return cls

  if cls is None:
    return _register
  return _register(cls)


def get_model(name):
  return _MODELS[name]


def create_model(name, width, device):
  model = get_model(name)(width)
  model = model.to(device)
  return model
