"""Greedy decoding that reads two extra facts on the first token only,
each under `i == 0 and <something else>`: one decided by the command
line, one by a library's tokenizer that ecg cannot read.

    python decode.py --inputs inputs.txt --no-speech-id 7
"""
import argparse

import tiktoken
import torch
import torch.nn as nn


class TinyLM(nn.Module):
    def __init__(self, vocab=256, dim=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids):
        return self.head(self.emb(ids))


def decode(model, enc, ids, no_speech_id, steps):
    no_speech = None
    first_eot = None
    for i in range(steps):
        logits = model(ids)
        if i == 0 and no_speech_id is not None:
            no_speech = logits[:, 0, no_speech_id].softmax(dim=-1).tolist()
        if i == 0 and enc.eot_token is not None:
            first_eot = logits[:, -1, enc.eot_token].cpu()
        nxt = logits[:, -1].argmax(dim=-1, keepdim=True)
        ids = torch.cat([ids, nxt], dim=1)
    return ids, no_speech, first_eot


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--inputs", required=True)
    p.add_argument("--no-speech-id", type=int, default=None)
    p.add_argument("--steps", type=int, default=20)
    args = p.parse_args()
    enc = tiktoken.get_encoding("gpt2")
    model = TinyLM().cuda().eval()
    with open(args.inputs) as fh:
        rows = [[int(t) for t in line.split()] for line in fh]
    with torch.no_grad():
        for row in rows:
            ids = torch.tensor([row], device="cuda")
            out, ns, eot = decode(model, enc, ids, args.no_speech_id, args.steps)
            print(out.shape, ns, eot)


if __name__ == "__main__":
    main()
