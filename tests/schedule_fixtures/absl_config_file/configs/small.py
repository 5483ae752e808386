from configs.base import get_default_configs


def get_config():
  config = get_default_configs()
  training = config.training
  training.log_freq = 20
  training.snapshot = True
  config.model.depth = 3
  return config
