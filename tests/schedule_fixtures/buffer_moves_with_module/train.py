import torch
import torch.nn as nn
import torch.nn.functional as F


class Queue(nn.Module):
    """A MoCo-like queue of keys: registered buffers move with the model."""

    def __init__(self, dim=16, size=64):
        super().__init__()
        self.size = size
        self.encoder = nn.Linear(dim, dim)
        self.register_buffer("queue", F.normalize(torch.randn(dim, size), dim=0))
        self.register_buffer("ptr", torch.zeros(1, dtype=torch.long))
        self.calls = torch.zeros(1, dtype=torch.long)

    def forward(self, x):
        k = F.normalize(self.encoder(x), dim=1)
        logits = k @ self.queue.clone().detach()
        ptr = int(self.ptr)
        n = int(self.calls)
        self.queue[:, ptr:ptr + k.shape[0]] = k.T
        self.ptr[0] = (ptr + k.shape[0]) % self.size
        self.calls += n > 1000
        return logits


class Counter(nn.Module):
    """A host-side helper module with a buffer, never moved."""

    def __init__(self):
        super().__init__()
        self.register_buffer("seen", torch.zeros(1, dtype=torch.long))

    def forward(self, n):
        self.seen += n
        return int(self.seen)


def main():
    device = torch.device("cuda")
    model = Queue().to(device)
    counter = Counter()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        x = torch.randn(8, 16).to(device)
        logits = model(x)
        loss = logits.logsumexp(1).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        counter(8)
        if step % 10 == 0:
            print(step)


if __name__ == "__main__":
    main()
