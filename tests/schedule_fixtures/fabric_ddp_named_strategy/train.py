import torch
import torch.nn as nn
from lightning.fabric import Fabric


def main(accum=4, steps=100):
    fabric = Fabric(strategy="ddp", devices=2, num_nodes=2)
    fabric.launch()
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    model, optimizer = fabric.setup(model, optimizer)  # DDP: a broadcast of rank 0's module states
    for i in range(steps * accum):
        x = torch.randn(8, 32)
        accumulating = (i + 1) % accum != 0
        with fabric.no_backward_sync(model, enabled=accumulating):
            loss = model(x).pow(2).mean()
            fabric.backward(loss)
        if not accumulating:
            fabric.clip_gradients(model, optimizer, max_norm=1.0)
            optimizer.step()
            optimizer.zero_grad()
    fabric.barrier()
    fabric.save("ckpt.pt", {"model": model, "optimizer": optimizer})  # ends with a barrier


if __name__ == "__main__":
    main()
