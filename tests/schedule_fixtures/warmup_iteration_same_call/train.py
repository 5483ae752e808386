"""A timing helper called at the start and at the end of every sample of a
loop whose first iteration is a warm-up cut short by `continue` (gpt-fast's
compile warm-up): two calls a step.  The warm-up iteration and the next
read the same call site again: not a third call a step.

    python train.py
"""
import torch
import torch.nn as nn


def device_sync():
    torch.cuda.synchronize()


def main():
    model = nn.Linear(16, 1).to("cuda")
    with torch.no_grad():
        for i in range(-1, 10):
            device_sync()
            y = model(torch.randn(8, 16, device="cuda"))
            if i == -1:
                print("warm-up done")
                continue
            device_sync()
            print(y.sum().item())


if __name__ == "__main__":
    main()
