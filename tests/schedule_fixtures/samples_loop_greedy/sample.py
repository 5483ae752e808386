"""Greedy completions of one start string, several times (timing runs).

    python sample.py --num-samples 4 --temperature 0
"""
import argparse
import time

import torch

from model import LM

p = argparse.ArgumentParser()
p.add_argument("--num-samples", type=int, default=4)
p.add_argument("--max-new-tokens", type=int, default=200)
p.add_argument("--temperature", type=float, default=0.0)
args = p.parse_args()

device = "cuda"
model = LM()
model.load_state_dict(torch.load("ckpt.pt", map_location="cpu"))
model.eval()
model.to(device)

start = [1, 17, 42]
x = torch.tensor(start, dtype=torch.long, device=device)[None, ...]
for k in range(args.num_samples):
    t0 = time.time()
    y = model.generate(x, args.max_new_tokens, temperature=args.temperature, eos=0)
    torch.cuda.synchronize()
    print(y[0].tolist(), time.time() - t0)
