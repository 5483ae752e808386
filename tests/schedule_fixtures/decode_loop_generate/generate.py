"""Completes a handful of prompts with one generate() call (one batch).

    python generate.py --max-gen-len 64
"""
import argparse
import json

import torch

from model import Generator, TinyLM


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--max-gen-len", type=int, default=64)
    p.add_argument("--temperature", type=float, default=0.8)
    p.add_argument("--prompts", default="prompts.json")
    p.add_argument("--out", default="completions.txt")
    args = p.parse_args()

    device = "cuda"
    model = TinyLM().to(device).eval()
    gen = Generator(model, device)
    with open(args.prompts) as f:
        prompts = json.load(f)
    out = gen.generate(prompts, args.max_gen_len, args.temperature, eos_id=2)
    with open(args.out, "w") as f:
        for ids in out:
            f.write(" ".join(str(i) for i in ids) + "\n")


if __name__ == "__main__":
    main()
