import argparse

import torch

from model import TinyLM


@torch.no_grad()
def generate(model, idx, max_new_tokens):
    for _ in range(max_new_tokens):
        logits = model(idx)
        probs = torch.softmax(logits[:, -1, :], dim=-1)
        nxt = torch.multinomial(probs, num_samples=1)
        idx = torch.cat([idx, nxt], dim=1)
    return idx


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--compile", action="store_true")
    parser.add_argument("--num_samples", type=int, default=5)
    args = parser.parse_args()

    model = TinyLM().to("cuda")
    model.eval()
    if args.compile:
        model = torch.compile(model)
    prompt = torch.zeros(1, 1, dtype=torch.long, device="cuda")

    # with --compile the first iteration (i == -1) only warms the compiled model up
    start = -1 if args.compile else 0
    for i in range(start, args.num_samples):
        y = generate(model, prompt, 32)
        if i == -1:
            print("compiled")
            continue
        torch.cuda.synchronize()
        print(y[0].tolist())


if __name__ == "__main__":
    main()
