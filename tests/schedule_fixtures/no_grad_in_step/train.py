"""No-grad work inside a training step is the step's own, not an
evaluation: a target network's values every step, and, in a periodic
block that trains (an update every 4 steps), a replay batch's copy.  A
periodic block that only runs the model under no_grad (every 100 steps)
is the evaluation."""
import numpy as np
import torch
import torch.nn as nn


def main():
    device = torch.device("cuda")
    q = nn.Linear(8, 4).to(device)
    target = nn.Linear(8, 4).to(device)
    opt = torch.optim.Adam(q.parameters(), lr=1e-3)
    replay = np.zeros((10000, 8), dtype=np.float32)
    for step in range(10000):
        obs = torch.randn(32, 8, device=device)
        with torch.no_grad():
            tq = target(obs).max(dim=1).values
        print("target", tq.mean().item())
        if step % 4 == 0:
            batch = torch.from_numpy(replay[:32]).to(device)
            with torch.no_grad():
                nxt = target(batch).max(dim=1).values
            loss = (q(batch).amax(dim=1) - nxt).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        if step % 100 == 0:
            with torch.no_grad():
                val = q(torch.randn(256, 8, device=device)).mean()
            print("val", val.item())


if __name__ == "__main__":
    main()
