"""Decodes each prompt with beam search at temperature 0, falling back to
sampling at higher temperatures when the result looks poor.

    python transcribe.py prompts.txt --beam-size 5
"""
import argparse

import numpy as np
import torch

from decoding import DecodingOptions, DecodingTask
from model import TinyLM


def quality(tokens):
    return len(set(tokens)) / max(len(tokens), 1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("prompts")
    p.add_argument("--beam-size", type=int, default=5)
    p.add_argument("--temperature-increment", type=float, default=0.2)
    args = p.parse_args()

    device = "cuda"
    model = TinyLM().to(device).eval()
    temperatures = tuple(np.arange(0.0, 1.0 + 1e-6, args.temperature_increment))
    with open(args.prompts) as f:
        prompts = [[int(x) for x in line.split()] for line in f]
    for prompt in prompts:
        for t in temperatures:
            kwargs = {"beam_size": args.beam_size}
            if t > 0:
                kwargs.pop("beam_size", None)
            task = DecodingTask(model, DecodingOptions(**kwargs, temperature=t))
            out = task.run(torch.tensor([prompt], device=device))[0]
            if quality(out) > 0.5:
                break
        print(" ".join(map(str, out)))


if __name__ == "__main__":
    main()
