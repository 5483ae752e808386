import argparse

import deepspeed
import torch
import torch.nn as nn
from deepspeed.pipe import PipelineModule
from torch.utils.data import TensorDataset


def stack(width):
    return [nn.Linear(64, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU(), nn.Linear(width, 10)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--local_rank", type=int, default=-1)
    parser.add_argument("--iters", type=int, default=500)
    parser.add_argument("--stages", type=int, default=4)
    parser = deepspeed.add_config_arguments(parser)
    args = parser.parse_args()
    deepspeed.init_distributed()
    model = PipelineModule(layers=stack(256), num_stages=args.stages, loss_fn=nn.CrossEntropyLoss())
    data = TensorDataset(torch.randn(4096, 64), torch.randint(0, 10, (4096,)))
    engine, _, _, _ = deepspeed.initialize(args=args, model=model, training_data=data)
    for it in range(args.iters):
        loss = engine.train_batch()
        if engine.bfloat16_enabled():
            print(loss.item())
        print(f"iteration {it}")


if __name__ == "__main__":
    main()
