"""Sampling with a decode loop that runs the prompt (the prefill) in its
first iteration: the prompt's log-probabilities are read back once per
prompt, the sampled token every token.

    python generate.py --prompts prompts.txt --max-new-tokens 32
"""
import argparse

import torch
import torch.nn as nn


class TinyLM(nn.Module):
    def __init__(self, vocab=256, dim=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids):
        return self.head(self.emb(ids))


def generate(model, prompt, max_new_tokens, device):
    ids = torch.tensor([prompt], device=device)
    out = list(prompt)
    prompt_logprobs = []
    for i in range(max_new_tokens):
        if i == 0:
            logits = model(ids)
            prompt_logprobs = torch.log_softmax(logits[0, :-1], dim=-1).tolist()
        else:
            logits = model(torch.tensor([[out[-1]]], device=device))
        probs = torch.softmax(logits[0, -1], dim=-1)
        token = torch.multinomial(probs, num_samples=1)
        out.append(token.item())
    return out, prompt_logprobs


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--prompts", required=True)
    p.add_argument("--max-new-tokens", type=int, default=16)
    args = p.parse_args()
    device = torch.device("cuda")
    model = TinyLM().to(device)
    model.eval()
    with open(args.prompts) as fh:
        prompts = [[int(t) for t in line.split()] for line in fh]
    with torch.no_grad():
        for prompt in prompts:
            out, lp = generate(model, prompt, args.max_new_tokens, device)
            print(len(out), len(lp))


if __name__ == "__main__":
    main()
