import functools
import inspect

from fvcore.common.config import CfgNode


def configurable(init_func):
    @functools.wraps(init_func)
    def wrapped(self, *args, **kwargs):
        from_config_func = type(self).from_config
        if not inspect.ismethod(from_config_func):
            raise TypeError("from_config must be a classmethod")
        if len(args) and isinstance(args[0], CfgNode):
            explicit_args = _get_args_from_config(from_config_func, *args, **kwargs)
            init_func(self, **explicit_args)
        else:
            init_func(self, *args, **kwargs)

    return wrapped


def _get_args_from_config(from_config_func, *args, **kwargs):
    signature = inspect.signature(from_config_func)
    if list(signature.parameters.keys())[0] != "cfg":
        raise TypeError("from_config must take 'cfg' first")
    support_var_arg = any(
        param.kind in [param.VAR_POSITIONAL, param.VAR_KEYWORD]
        for param in signature.parameters.values()
    )
    if support_var_arg:
        ret = from_config_func(*args, **kwargs)
    else:
        supported = set(signature.parameters.keys())
        extra = {}
        for name in list(kwargs.keys()):
            if name not in supported:
                extra[name] = kwargs.pop(name)
        ret = from_config_func(*args, **kwargs)
        ret.update(extra)
    return ret


def get_cfg():
    cfg = CfgNode()
    cfg.MODEL = CfgNode()
    cfg.MODEL.META_ARCHITECTURE = "Detector"
    cfg.MODEL.BACKBONE = "build_small_backbone"
    cfg.MODEL.WIDTH = 32
    cfg.MODEL.DEVICE = "cuda"
    cfg.DATA = CfgNode()
    cfg.DATA.BETON = "train.beton"
    cfg.DATA.VAL_BETON = "val.beton"
    cfg.SOLVER = CfgNode()
    cfg.SOLVER.MAX_ITER = 1000
    return cfg
