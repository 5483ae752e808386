import torch
import torch.nn as nn
from lightning.fabric import Fabric
from lightning.fabric.strategies import FSDPStrategy


def main(devices="auto", accum=4):
    if devices == "auto":
        devices = torch.cuda.device_count() or 1
    if devices > 1:
        strategy = FSDPStrategy(sharding_strategy="HYBRID_SHARD", state_dict_type="full")
    else:
        strategy = "auto"
    fabric = Fabric(devices=devices, strategy=strategy)
    fabric.launch()
    model = fabric.setup(nn.Linear(16, 1))
    fabric.barrier()  # a barrier only with several processes, whose number the machine decides
    for i in range(1000):
        x = torch.randn(4, 16)
        with fabric.no_backward_sync(model, enabled=(i + 1) % accum != 0):
            fabric.backward(model(x).sum())
    fabric.save("ckpt.pt", {"model": model})


if __name__ == "__main__":
    main()
