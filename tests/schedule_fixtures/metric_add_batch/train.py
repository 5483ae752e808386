import evaluate
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 3)

    def forward(self, x):
        return self.fc(x)


model = Net().cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
metric = evaluate.load("accuracy")
for epoch in range(3):
    model.train()
    for step in range(100):
        x = torch.randn(8, 16, device="cuda")
        loss = model(x).sum()
        loss.backward()
        opt.step()
        opt.zero_grad()
    model.eval()
    for step in range(10):
        x = torch.randn(8, 16, device="cuda")
        y = torch.randint(0, 3, (8,))
        with torch.no_grad():
            preds = model(x).argmax(dim=-1)
        metric.add_batch(predictions=preds, references=y)
        metric.add_batch(predictions=y, references=y)
    print(metric.compute())
