from contextlib import ExitStack, contextmanager

import numpy as np
import torch
from ffcv.loader import Loader, OrderOption

from config import get_cfg
from modeling import build_model


def do_train(cfg, model):
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    # FFCV's loader decodes on the GPU: its batches (lists of per-image
    # dicts here, by the pipelines the beton file names) are on the device
    loader = Loader(cfg.DATA.BETON, batch_size=8, order=OrderOption.RANDOM,
                    os_cache=True, drop_last=True)
    it = 0
    smooth = 0.0
    while it < cfg.SOLVER.MAX_ITER:
        for data in loader:
            loss_dict = model(data)
            losses = loss_dict["loss_cls"]
            assert torch.isfinite(losses).all(), loss_dict
            opt.zero_grad()
            losses.backward()
            opt.step()
            smooth = 0.9 * smooth + 0.1 * np.log(losses.item())
            it += 1
            if it >= cfg.SOLVER.MAX_ITER:
                break


@contextmanager
def inference_context(model):
    training_mode = model.training
    model.eval()
    yield
    model.train(training_mode)


def do_test(cfg, model):
    loader = Loader(cfg.DATA.VAL_BETON, batch_size=1, order=OrderOption.SEQUENTIAL)
    total = 0
    with ExitStack() as stack:
        stack.enter_context(inference_context(model))
        stack.enter_context(torch.no_grad())
        for inputs in loader:
            outputs = model(inputs)
            torch.cuda.synchronize()
            total += len(outputs)
    return total


def main():
    cfg = get_cfg()
    model = build_model(cfg)
    do_train(cfg, model)
    do_test(cfg, model)


if __name__ == "__main__":
    main()
