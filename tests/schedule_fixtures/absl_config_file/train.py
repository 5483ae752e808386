import torch
import torch.nn as nn
from absl import app
from absl import flags
from ml_collections.config_flags import config_flags

FLAGS = flags.FLAGS

config_flags.DEFINE_config_file("config", None, "Training configuration.", lock_config=True)
flags.DEFINE_string("workdir", None, "Work directory.")
flags.DEFINE_enum("mode", None, ["train", "eval"], "Running mode: train or eval")
flags.DEFINE_integer("seed", 0, "Random seed.")
flags.DEFINE_boolean("eval_loss", True, "Report the eval loss.")
flags.mark_flags_as_required(["workdir", "config", "mode"])


def train(config, workdir):
  torch.manual_seed(FLAGS.seed)
  width = config.model.width
  model = nn.Sequential(*[nn.Linear(width, width) for _ in range(config.model.depth)]).to(config.device)
  opt = torch.optim.Adam(model.parameters())
  for step in range(config.training.n_iters):
    x = torch.randn(32, width).to(config.device)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % config.training.log_freq == 0:
      print(step, loss.item())
    if FLAGS.eval_loss and step % config.training.eval_freq == 0:
      with torch.no_grad():
        ev = model(torch.randn(32, width).to(config.device)).pow(2).mean()
      print("eval", ev.item())
    if config.training.snapshot and step % 1000 == 0:
      torch.save(model.state_dict(), f"{workdir}/ckpt.pt")


def evaluate(config, workdir):
  model = torch.load(f"{workdir}/ckpt.pt")
  print(model["0.weight"].sum().item())


def main(argv):
  if len(argv) > 1:
    raise app.UsageError("Too many command-line arguments.")
  if FLAGS.mode == "train":
    train(FLAGS.config, FLAGS.workdir)
  elif FLAGS.mode == "eval":
    evaluate(FLAGS.config, FLAGS.workdir)


if __name__ == "__main__":
  app.run(main)
