"""A conditional expression whose test the code does not decide: what one
arm does holds under that arm's side of the test, as in an `if`.  The
loss is read every log_every steps only (a step guard in the expression's
test); the other arm reads nothing."""
import torch
import torch.nn as nn


def main():
    device = torch.device("cuda")
    model = nn.Linear(32, 1).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    log_every = 100
    history = []
    for step in range(10000):
        x = torch.randn(64, 32, device=device)
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        shown = loss.item() if step % log_every == 0 else None
        history.append(shown)
    print(len(history))


if __name__ == "__main__":
    main()
