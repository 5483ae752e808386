import numpy as np
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
to_db = lambda x: -10. * torch.log(x) / torch.log(torch.Tensor([10.]))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 4)

    def forward(self, x):
        return self.fc(x)


def train():
    images = np.random.rand(100, 8).astype(np.float32)
    model = Net().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    poses = torch.Tensor(images).to(device)
    for i in range(1000):
        x = torch.Tensor(images[i % 100]).to(device)
        w = torch.ones(4)
        y = torch.Tensor(poses[i % 100])
        loss = (model(x) * w).pow(2).mean() + y.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        db = to_db(loss)
        if i % 100 == 0:
            print(db.item())


if __name__ == '__main__':
    torch.set_default_tensor_type('torch.cuda.FloatTensor')
    train()
