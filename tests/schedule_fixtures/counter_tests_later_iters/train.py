# Tests on the step loop's own counter that its first value decides:
# `if step > 0:` is false at step 0 only, so its block runs on the later
# steps (a condition, never dropped); `not step % N` is `step % N == 0`, a
# periodic block (guided-diffusion's `not step % args.save_interval`).
import torch
import torch.distributed as dist


def save(model, step):
    if dist.get_rank() == 0:
        torch.save(model.state_dict(), f"model{step:06d}.pt")


def main():
    dist.init_process_group("nccl")
    device = torch.device("cuda", 0)
    model = torch.nn.Linear(4, 2).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    resume_step = 0
    prev = None
    for step in range(1000 - resume_step):
        x = torch.randn(8, 4, device=device)
        loss = model(x).sum()
        loss.backward()
        opt.step()
        opt.zero_grad()
        if step > 0:
            print(f"delta {(loss - prev).item()}")
        prev = loss.detach()
        if not step % 50:
            print(f"loss {loss.item()}")
        if (
            step
            and dist.get_rank() == 0
            and not (step + resume_step) % 100
        ):
            save(model, step + resume_step)


main()
