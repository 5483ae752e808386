import argparse
import torch
import torch.nn as nn
import torch.distributed as dist
from hparams import create_hparams


def train(hparams):
    model = nn.Linear(16, 4).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100000):
        x = torch.randn(hparams.batch_size, 16).cuda()
        loss = model(x).pow(2).mean()
        if hparams.distributed_run:
            dist.all_reduce(loss)
        loss.backward()
        grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        if hparams.fp16_run:
            print(float(grad_norm))
        opt.step()
        opt.zero_grad()
        if step % hparams.iters_per_checkpoint == 0:
            torch.save(model.state_dict(), "ckpt.pt")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--hparams", type=str, required=False)
    args = parser.parse_args()
    train(create_hparams(args.hparams))
