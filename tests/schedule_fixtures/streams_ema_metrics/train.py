"""Train an MLP with a side stream that copies the next batch while the
current one computes, CUDA events for timing, an EMA of the weights and a
log line formatted from device-side running means."""
import argparse

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from metrics import ModelEma, RunningMean
from model import MLP


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=200)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--log-every", type=int, default=20)
    return p.parse_args()


def main():
    args = parse_args()
    device = torch.device("cuda")
    data = TensorDataset(torch.randn(4096, 32), torch.randint(0, 10, (4096,)))
    loader = DataLoader(data, batch_size=args.batch_size, shuffle=True, pin_memory=True, num_workers=2)
    model = MLP(32, 128, 10).to(device)
    ema = ModelEma(model)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    copy_stream = torch.cuda.Stream()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    loss_mean = RunningMean(device)

    batches = iter(loader)
    x, y = next(batches)
    with torch.cuda.stream(copy_stream):
        x = x.to(device, non_blocking=True)
        y = y.to(device, non_blocking=True)
    for step in range(args.steps):
        torch.cuda.current_stream().wait_stream(copy_stream)
        cur_x, cur_y = x, y
        nx, ny = next(batches)
        with torch.cuda.stream(copy_stream):
            x = nx.to(device, non_blocking=True)
            y = ny.to(device, non_blocking=True)
        start.record()
        loss = F.cross_entropy(model(cur_x), cur_y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        ema.update(model)
        end.record()
        loss_mean.update(loss)
        if end.query():
            pass
        if step % args.log_every == 0:
            end.synchronize()
            ms = start.elapsed_time(end)
            print(f"step {step} loss {loss_mean:.4f} {ms:.1f} ms")
            loss_mean.reset()
            assert torch.isfinite(loss), "the loss diverged"
    copy_stream.synchronize()
    torch.save(ema.shadow, "ema.pt")


if __name__ == "__main__":
    main()
