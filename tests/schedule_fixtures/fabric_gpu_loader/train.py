import torch
import torch.nn as nn
from lightning.fabric import Fabric
from torch.utils.data import DataLoader, TensorDataset


def main():
    fabric = Fabric(accelerator="cuda", devices=1, precision="bf16-mixed")
    with fabric.init_module():  # the parameters made on the GPU
        model = nn.Linear(32, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    model, optimizer = fabric.setup(model, optimizer)
    data = TensorDataset(torch.randn(512, 32), torch.randn(512, 1))
    train = DataLoader(data, batch_size=16, shuffle=True, pin_memory=True)
    val = DataLoader(data, batch_size=64)
    train, val = fabric.setup_dataloaders(train, val)
    scale = fabric.to_device(torch.ones(1))
    for epoch in range(3):
        for x, y in train:
            loss = nn.functional.mse_loss(model(x) * scale, y)
            fabric.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
        fabric.barrier()  # one process: no barrier
        with torch.no_grad():
            for x, y in val:
                print(nn.functional.mse_loss(model(x), y).item())


if __name__ == "__main__":
    main()
