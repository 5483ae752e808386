"""One prompt continued by a generator drained whole with list(): the
decode loop is inside the generator, its prefill done in the iteration
that turns a flag off.

    python generate.py --prompt "1 2 3" --max-new-tokens 32
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


def sample(probs):
    if torch._dynamo.is_compiling():
        return torch.argmax(probs, dim=-1, keepdim=True)
    return torch.multinomial(probs, num_samples=1)


def generate_fn(model, prompt, max_new_tokens):
    device = prompt.device
    yield prompt
    token = prompt
    input_pos = torch.arange(0, prompt.size(0), device=device)
    prefill = True
    for _ in range(max_new_tokens):
        logits = model(token.view(1, -1))
        token = sample(torch.softmax(logits[0, -1], dim=-1))
        if token.item() == 0:
            return
        yield token
        if prefill:
            prefill = False
            input_pos = torch.tensor([prompt.size(0)], device=device)
        else:
            input_pos.add_(1)


def generate(model, prompt, max_new_tokens):
    tokens = list(generate_fn(model, prompt, max_new_tokens))
    return torch.cat(tokens)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--prompt", required=True)
    p.add_argument("--max-new-tokens", type=int, default=16)
    args = p.parse_args()
    device = torch.device("cuda")
    model = TinyLM().to(device)
    model.eval()
    encoded = torch.tensor([int(t) for t in args.prompt.split()], device=device)
    with torch.no_grad():
        y = generate(model, encoded, args.max_new_tokens)
    print(y.size(0))


if __name__ == "__main__":
    main()
