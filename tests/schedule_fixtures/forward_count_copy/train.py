import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class SetLoss(nn.Module):
    def forward(self, outputs, targets):
        num_boxes = sum(len(t["labels"]) for t in targets)
        num_boxes = torch.as_tensor([num_boxes], dtype=torch.float, device=outputs.device)
        scale = torch.as_tensor(outputs.detach().mean(), device=outputs.device)
        return outputs.sum() * scale / num_boxes.clamp(min=1)


def main():
    device = torch.device("cuda")
    model = nn.Linear(8, 4).to(device)
    criterion = SetLoss()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    data = TensorDataset(torch.randn(64, 8), torch.randint(0, 4, (64, 3)))
    loader = DataLoader(data, batch_size=8)
    for x, y in loader:
        x = x.to(device)
        targets = [{"labels": row.to(device)} for row in y]
        loss = criterion(model(x), targets)
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
