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
    while it < cfg.SOLVER.MAX_ITER:
        for data in loader:
            loss_dict = model(data)
            losses = loss_dict["loss_cls"]
            assert torch.isfinite(losses).all(), loss_dict
            opt.zero_grad()
            losses.backward()
            opt.step()
            it += 1
            if it >= cfg.SOLVER.MAX_ITER:
                break


def main():
    cfg = get_cfg()
    model = build_model(cfg)
    do_train(cfg, model)


if __name__ == "__main__":
    main()
