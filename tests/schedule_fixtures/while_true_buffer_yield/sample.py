"""A generator that fills a buffer from an array of unknown length and
yields a batch once the buffer holds batch_size items, inside `while
True:` (guided-diffusion's super_res_sample.py load_data_for_worker).  The
yield is on one path of a test the reading cannot decide; the loop is
left only through it, so next(data) is that batch -- not a loop read a
hundred thousand times until the analysis budget runs out, which left the
job with no step."""
import numpy as np
import torch
import torch.nn as nn


def load_batches(path, batch_size):
    image_arr = np.load(path)["arr_0"]
    buffer = []
    while True:
        for i in range(0, len(image_arr)):
            buffer.append(image_arr[i])
            if len(buffer) == batch_size:
                batch = torch.from_numpy(np.stack(buffer)).float()
                yield dict(low_res=batch)
                buffer = []


def main():
    model = nn.Linear(4, 4).cuda()
    data = load_batches("base_samples.npz", 16)
    for _ in range(10):
        kwargs = next(data)
        kwargs = {k: v.cuda() for k, v in kwargs.items()}
        with torch.no_grad():
            out = model(kwargs["low_res"])
        print(out.sum().item())


if __name__ == "__main__":
    main()
