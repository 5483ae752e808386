import hydra
import torch
import torch.distributed as dist
import torch.nn as nn
from omegaconf import DictConfig


@hydra.main(version_base=None, config_path="./conf", config_name="train")
def main(cfg: DictConfig):
    dist.init_process_group("nccl")
    width = cfg.model.width
    model = nn.Linear(width, width).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    if cfg["train"]["use_amp"]:
        scaler = torch.amp.GradScaler("cuda")
    for step in range(cfg.train.steps):
        x = torch.randn(8, width).cuda()
        loss = model(x).pow(2).mean()
        if cfg.train.sync_loss:
            dist.all_reduce(loss)
        opt.zero_grad()
        if cfg.train.use_amp:
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()
        else:
            loss.backward()
            opt.step()
        if step % cfg.train.log_every == 0:
            print(loss.item())


if __name__ == "__main__":
    main()
