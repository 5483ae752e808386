# A branch outside any periodic block that saves: once an epoch, when the
# loss improves, the processes meet at a barrier, rank 0's model is
# written, and they meet again.  The barriers are the checkpoint's work
# (phase checkpoint), not the training step's, though no `step % N`
# guard holds them (llama-cookbook's train(): `if should_save_model:
# dist.barrier(); save_peft_checkpoint(...); dist.barrier()`).
import torch
import torch.distributed as dist
import torch.nn as nn


def main():
    dist.init_process_group("nccl")
    device = torch.device("cuda")
    model = nn.Linear(8, 8).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    best = float("inf")
    for epoch in range(3):
        for step in range(100):
            x = torch.randn(4, 8, device=device)
            loss = model(x).sum()
            loss.backward()
            opt.step()
            opt.zero_grad()
        val = loss.detach()
        if val < best:
            best = val
            dist.barrier()
            torch.save(model.state_dict(), "best.pt")
            dist.barrier()


main()
