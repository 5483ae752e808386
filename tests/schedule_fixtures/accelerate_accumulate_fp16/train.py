import argparse
import os

import safetensors.torch
import torch
import torch.nn as nn
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--mixed_precision", default=None)
    p.add_argument("--accum", type=int, default=4)
    p.add_argument("--checkpointing_steps", type=int, default=100)
    p.add_argument("--output_dir", default="out")
    args = p.parse_args()
    accelerator = Accelerator(gradient_accumulation_steps=args.accum, mixed_precision=args.mixed_precision)
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1))
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)

    def save_model_hook(models, weights, output_dir):
        for m in models:
            torch.save(m.state_dict(), os.path.join(output_dir, "model.pt"))
            safetensors.torch.save_file(m.state_dict(), os.path.join(output_dir, "model.safetensors"))
            weights.pop()

    accelerator.register_save_state_pre_hook(save_model_hook)
    data = TensorDataset(torch.randn(256, 32), torch.randn(256, 1))
    loader = DataLoader(data, batch_size=8, shuffle=True)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    weight_dtype = torch.float32
    if accelerator.mixed_precision == "fp16":
        weight_dtype = torch.float16
    global_step = 0
    for x, y in loader:
        with accelerator.accumulate(model):
            out = model(x.to(weight_dtype))
            loss = nn.functional.mse_loss(out.float(), y)
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
        if accelerator.sync_gradients:
            global_step += 1
            if global_step % args.checkpointing_steps == 0:
                accelerator.save_state(os.path.join(args.output_dir, f"checkpoint-{global_step}"))
        print(loss.detach().item())


if __name__ == "__main__":
    main()
