import ml_collections


def get_default_configs():
  config = ml_collections.ConfigDict()
  config.training = training = ml_collections.ConfigDict()
  training.n_iters = 10000
  training.log_freq = 100
  training.eval_freq = 500
  training.snapshot = False
  config.model = model = ml_collections.ConfigDict()
  model.width = 64
  model.depth = 2
  config.device = 'cuda'
  return config
