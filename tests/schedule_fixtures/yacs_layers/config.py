import os

import yaml
from yacs.config import CfgNode as CN

_C = CN()
_C.BASE = [""]
_C.DATA = CN()
_C.DATA.BATCH_SIZE = 32
_C.MODEL = CN()
_C.MODEL.WIDTH = 64
_C.MODEL.DEPTH = 2
_C.LOSS = CN()
_C.LOSS.SYNC = False
_C.TRAIN = CN()
_C.TRAIN.LR = 0.1
_C.TRAIN.STEPS = 1000
_C.PRINT_FREQ = 10
_C.THROUGHPUT_MODE = False


def _update_config_from_file(config, cfg_file):
    config.defrost()
    with open(cfg_file, "r") as f:
        yaml_cfg = yaml.load(f, Loader=yaml.FullLoader)
    for cfg in yaml_cfg.setdefault("BASE", [""]):
        if cfg:
            _update_config_from_file(config, os.path.join(os.path.dirname(cfg_file), cfg))
    config.merge_from_file(cfg_file)
    config.freeze()


def update_config(config, args):
    _update_config_from_file(config, args.cfg)
    config.defrost()
    if args.opts:
        config.merge_from_list(args.opts)

    def _check_args(name):
        if hasattr(args, name) and eval(f"args.{name}"):
            return True
        return False

    if _check_args("batch_size"):
        config.DATA.BATCH_SIZE = args.batch_size
    if _check_args("throughput"):
        config.THROUGHPUT_MODE = True
    config.freeze()


def get_config(args):
    config = _C.clone()
    update_config(config, args)
    return config
