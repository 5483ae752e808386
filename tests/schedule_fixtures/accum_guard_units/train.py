"""Gradient accumulation over Fabric's no_backward_sync, one process.
Two periodic guards in the micro-step loop: the loss log tests the pass
counter (iter_num, +1 every micro-step) on every pass: every log_every=16
micro-steps, 2 steps of accum=8 (is_accumulating's cycle); the validation
tests the step counter on the pass that ends a step only (`not
is_accumulating and ...`), so it runs every eval_every=100 steps."""
import lightning as L
import torch
import torch.nn as nn


def main(accum=8, max_iters=8000, log_every=16, eval_every=100):
    fabric = L.Fabric(accelerator="cuda", devices=1)
    fabric.launch()
    model = fabric.setup(nn.Linear(64, 1))
    optimizer = fabric.setup_optimizers(torch.optim.AdamW(model.parameters(), lr=1e-3))
    state = {"iter_num": 0, "step_count": 0}
    for it in range(max_iters):
        state["iter_num"] += 1
        x = torch.randn(16, 64, device=fabric.device)
        is_accumulating = state["iter_num"] % accum != 0
        with fabric.no_backward_sync(model, enabled=is_accumulating):
            loss = model(x).pow(2).mean()
            fabric.backward(loss / accum)
        if not is_accumulating:
            optimizer.step()
            optimizer.zero_grad()
            state["step_count"] += 1
        if state["iter_num"] % log_every == 0:
            print(loss.item())
        if not is_accumulating and state["step_count"] % eval_every == 0:
            with torch.no_grad():
                val = model(torch.randn(64, 64, device=fabric.device)).pow(2).mean()
            print(val.item())


if __name__ == "__main__":
    main()
