"""Times greedy generation with a CUDA-graph decode step: one warm-up
generate() call, then a timed loop of three.

    python bench.py --genlen 32
"""
import argparse

import torch

from model import TinyLM, generate

parser = argparse.ArgumentParser()
parser.add_argument("--genlen", type=int, default=32)
args = parser.parse_args()

model = TinyLM(device="cuda").eval()
input_ids = torch.randint(1, 100, (1, 8), device="cuda")
fn = lambda: generate(model, input_ids, input_ids.shape[1] + args.genlen)
out = fn()
print(out.tolist())

torch.cuda.synchronize()
for _ in range(3):
    fn()
torch.cuda.synchronize()
print(len(out[0]))
