# A batch job decoding one prompt per step, greedily, until every sequence
# holds an end token: the all-finished test is read on the host at every
# token, but the block that ends the loop (`...; break`) runs once a step,
# on the iteration that leaves it.
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(100, 16)
        self.out = nn.Linear(16, 100)

    def forward(self, x):
        return self.out(self.emb(x))


def decode(model, prompt, max_len, eos):
    seq = prompt
    best = 0
    with torch.no_grad():
        for t in range(max_len):
            logits = model(seq)[:, -1, :]
            nxt = logits.argmax(-1, keepdim=True)
            seq = torch.cat([seq, nxt], dim=1)
            done = (seq == eos).any(1)
            if done.all().item():
                best = logits.max(-1)[1][0].item()
                break
    return seq.tolist(), best


def main():
    device = torch.device("cuda")
    model = Net().to(device)
    prompts = [[1, 2, 3], [4, 5], [6]]
    for p in prompts:
        x = torch.tensor([p], device=device)
        out, best = decode(model, x, 50, 2)
        print(out, best)


if __name__ == "__main__":
    main()
