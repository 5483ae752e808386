import torch
import torch.nn as nn
from apex import amp
from apex.parallel.LARC import LARC


def main():
    model = nn.Linear(10, 10).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    optimizer = LARC(optimizer=optimizer, trust_coefficient=0.001, clip=False)
    for step in range(100):
        x = torch.randn(32, 10, device="cuda")
        loss = model(x).pow(2).mean()
        optimizer.zero_grad()
        with amp.scale_loss(loss, optimizer) as scaled_loss:
            scaled_loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
