import torch
import torch.nn as nn
from accelerate import Accelerator


def main():
    amp = True
    accelerator = Accelerator(mixed_precision="fp16" if amp else "no")
    model = nn.Linear(32, 1)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    model, opt = accelerator.prepare(model, opt)
    for step in range(1, 1001):
        x = torch.randn(8, 32, device=accelerator.device)
        loss = model(x).mean()
        accelerator.backward(loss)
        opt.step()
        opt.zero_grad()
    data = {
        "opt": opt.state_dict(),
        "scaler": accelerator.scaler.state_dict() if accelerator.scaler is not None else None,
    }
    print(sorted(data))


if __name__ == "__main__":
    main()
