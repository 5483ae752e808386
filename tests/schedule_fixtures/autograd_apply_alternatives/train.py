import torch
import torch.distributed as dist

import tplib

dist.init_process_group("nccl")
torch.cuda.set_device(dist.get_rank() % torch.cuda.device_count())
tp_group = dist.new_group([0, 1, 2, 3])


class Block(torch.nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.fc1 = tplib.Linear(dim, 4 * dim, tp_group=tp_group, tp_size=4, parallel_mode="column")
        self.fc2 = tplib.Linear(4 * dim, dim, tp_group=tp_group, tp_size=4, parallel_mode="row")

    def forward(self, x):
        return x + self.fc2(torch.nn.functional.gelu(self.fc1(x)))


def main():
    model = Block(64).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        x = torch.randn(8, 64, device="cuda")
        loss = model(x).float().pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
