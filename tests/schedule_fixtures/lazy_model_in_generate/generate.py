"""A generate function that builds and loads its model on its first call
(a lazy cache), then copies the prompt in and decodes: the model's
weights are loaded and moved before the decode loop, in the generate
call, but that is the model's start-up, not the prompt's prefill.

    python generate.py --ckpt lm.pt --steps 50
"""
import argparse

import torch
import torch.nn as nn

models = {}


class TinyLM(nn.Module):
    def __init__(self, vocab=256, dim=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, x):
        return self.head(self.emb(x))


def load_model(path):
    state = torch.load(path, map_location="cpu")
    model = TinyLM()
    model.load_state_dict(state)
    model.to("cuda")
    torch.cuda.synchronize()
    return model


def generate(path, steps):
    if "lm" not in models:
        models["lm"] = load_model(path)
    model = models["lm"]
    x = torch.zeros(1, 1, dtype=torch.long).to("cuda")
    with torch.no_grad():
        for n in range(steps):
            logits = model(x[:, -1:])
            probs = torch.softmax(logits[0, -1], dim=-1)
            nxt = torch.multinomial(probs, num_samples=1)
            x = torch.cat((x, nxt[None]), dim=1)
    return x.cpu().tolist()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--ckpt", default="lm.pt")
    p.add_argument("--steps", type=int, default=10)
    args = p.parse_args()
    print(generate(args.ckpt, args.steps))


if __name__ == "__main__":
    main()
