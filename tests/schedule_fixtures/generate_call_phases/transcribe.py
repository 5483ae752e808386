"""Decodes one prompt per window, each token by token.

    python transcribe.py --windows 8 --sample-len 32
"""
import argparse

from decoding import DecodeTask, TinyLM


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--sample-len", type=int, default=32)
    p.add_argument("--windows", type=int, default=8)
    args = p.parse_args()

    device = "cuda"
    model = TinyLM().to(device).eval()
    task = DecodeTask(model, args.sample_len)
    results = []
    for w in range(args.windows):
        ids, score = task.run([1, 5 + w], device)
        results.append((ids, score))
        print(len(ids), score)


if __name__ == "__main__":
    main()
