import lightning as L
import torch
import torch.nn as nn
from lightning.fabric.strategies import FSDPStrategy


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(64, 64)

    def forward(self, x):
        return torch.relu(self.fc(x))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block() for _ in range(4)])
        self.head = nn.Linear(64, 1)

    def forward(self, x):
        for b in self.blocks:
            x = b(x)
        return self.head(x)


def main(devices=4, accum=8, max_iters=1000):
    strategy = FSDPStrategy(auto_wrap_policy={Block}, state_dict_type="full", sharding_strategy="FULL_SHARD")
    fabric = L.Fabric(devices=devices, num_nodes=1, strategy=strategy, precision="bf16-mixed")
    fabric.launch()
    with fabric.init_module(empty_init=True):
        model = Net()
    model = fabric.setup(model)
    optimizer = fabric.setup_optimizers(torch.optim.AdamW(model.parameters(), lr=1e-3))
    with fabric.rank_zero_first():  # a barrier with several processes
        data = torch.randn(1024, 64)
    fabric.barrier()
    state = {"model": model, "optimizer": optimizer, "iter_num": 0}
    for it in range(max_iters):
        state["iter_num"] += 1
        x = torch.randn(16, 64, device=fabric.device)
        is_accumulating = state["iter_num"] % accum != 0
        with fabric.no_backward_sync(model, enabled=is_accumulating):
            loss = model(x).pow(2).mean()
            fabric.backward(loss / accum)
        if not is_accumulating:
            fabric.clip_gradients(model, optimizer, max_norm=1.0)
            optimizer.step()
            optimizer.zero_grad()
            avg = fabric.all_reduce(loss.detach())  # an all-reduce over the 4 processes
            fabric.print(f"step {it}")
    fabric.save("out.pth", state)  # FSDP: broadcast_object_list of the path, all_gather, then a barrier


if __name__ == "__main__":
    main()
