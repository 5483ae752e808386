# The default configuration, found next to this file (dinov2's manner).
import pathlib

from omegaconf import OmegaConf


def load_config(name):
    return OmegaConf.load(pathlib.Path(__file__).parent.resolve() / (name + ".yaml"))


default_config = load_config("default")
