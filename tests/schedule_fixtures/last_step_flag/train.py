"""A training loop that runs one iteration more than it steps, to evaluate
and save at the end: `last_step` is true on its last iteration only, since
the loop breaks on it.  The save runs at the last step or every save_every
steps; save_every is -1 (the default), so only at the last step: once.  The
evaluation runs every eval_every steps and at the last step.  A look-alike
flag the loop does not break on (near_end, true on the last ten steps)
keeps its block every step, under its condition."""
import argparse

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--num-iterations", type=int, default=1000)
parser.add_argument("--save-every", type=int, default=-1)
parser.add_argument("--eval-every", type=int, default=100)
args = parser.parse_args()

device = torch.device("cuda")
model = nn.Linear(16, 16).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)

step = 0
while True:
    last_step = step == args.num_iterations
    near_end = step >= args.num_iterations - 10
    if last_step or step % args.eval_every == 0:
        with torch.no_grad():
            val = model(torch.randn(8, 16, device=device)).pow(2).mean()
        print(f"step {step} val {val.item():.4f}")
    if last_step or (step > 0 and args.save_every > 0 and step % args.save_every == 0):
        torch.save(model.state_dict(), "model.pt")
    if near_end:
        print("norm", model.weight.norm().item())
    if last_step:
        break
    x = torch.randn(8, 16, device=device)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    step += 1
