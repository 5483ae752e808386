"""A model whose forward keeps the loss on itself (self.last_loss = ...)
and returns only the logits: the loop reads the loss from the model object
after the call, and its .item() reads a device tensor back every step.

    python train.py
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyLM(nn.Module):
    def __init__(self, vocab=256, dim=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.out = nn.Linear(dim, vocab)
        self.last_loss = None

    def forward(self, tokens, targets=None):
        logits = self.out(self.emb(tokens))
        if targets is not None:
            self.last_loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
        else:
            self.last_loss = None
        return logits


def main():
    device = "cuda"
    model = TinyLM().to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for it in range(100):
        x = torch.randint(0, 256, (8, 32), device=device)
        y = torch.randint(0, 256, (8, 32), device=device)
        logits = model(x, y)
        loss = model.last_loss
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        print(f"iter {it}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
