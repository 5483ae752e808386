"""Draws batches of images until --num-samples are done, refines each for at
most --seconds, saves them as numpy.

    python sample.py --num-samples 16 --batch-size 4 --steps 50
"""
import argparse

import numpy as np
import torch

from model import Denoiser, Sampler


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--num-samples", type=int, default=16)
    p.add_argument("--batch-size", type=int, default=4)
    p.add_argument("--steps", type=int, default=50)
    p.add_argument("--seconds", type=float, default=1.0)
    args = p.parse_args()

    device = "cuda"
    model = Denoiser().to(device).eval()
    sampler = Sampler(args.steps)
    images = []
    while len(images) * args.batch_size < args.num_samples:
        x = sampler.sample_loop(model, (args.batch_size, 3, 32, 32), device)
        x = sampler.refine_until(model, x, device, args.seconds)
        x = ((x + 1) * 127.5).clamp(0, 255).to(torch.uint8)
        images.append(x.cpu().numpy())
    np.save("samples.npy", np.concatenate(images, axis=0))


if __name__ == "__main__":
    main()
