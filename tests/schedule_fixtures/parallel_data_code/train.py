import argparse
import os

import torch
import torch.nn as nn

import parallel_state


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tensor-model-parallel-size", type=int, default=1)
    parser.add_argument("--pipeline-model-parallel-size", type=int, default=1)
    parser.add_argument("--context-parallel-size", type=int, default=1)
    parser.add_argument("--global-batch-size", type=int, default=64)
    parser.add_argument("--micro-batch-size", type=int, default=2)
    parser.add_argument("--steps", type=int, default=10)
    return parser.parse_args()


def validate_args(args):
    args.world_size = int(os.getenv("WORLD_SIZE", "1"))
    model_size = args.tensor_model_parallel_size * args.pipeline_model_parallel_size * args.context_parallel_size
    assert args.world_size % model_size == 0
    args.data_parallel_size = args.world_size // model_size


def setup_microbatches(global_batch_size, micro_batch_size, data_parallel_size):
    return global_batch_size // (micro_batch_size * data_parallel_size)


def main():
    args = parse_args()
    validate_args(args)
    num_micro = setup_microbatches(args.global_batch_size, args.micro_batch_size,
                                   data_parallel_size=args.data_parallel_size)
    parallel_state.initialize_model_parallel(
        args.tensor_model_parallel_size,
        args.pipeline_model_parallel_size,
        context_parallel_size=args.context_parallel_size,
    )
    model = nn.Linear(16, 16)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(args.steps):
        loss = model(torch.randn(num_micro, 16)).sum()
        loss.backward()
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
