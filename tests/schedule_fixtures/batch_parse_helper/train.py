import torch
import torch.nn as nn


def to_gpu(x):
    x = x.contiguous()
    if torch.cuda.is_available():
        x = x.cuda(non_blocking=True)
    return x


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(100, 32)
        self.out = nn.Linear(32, 1)

    def parse_batch(self, batch):
        text, lengths, target = batch
        text = to_gpu(text).long()
        lengths = to_gpu(lengths).long()
        max_len = torch.max(lengths.data).item()
        target = to_gpu(target).float()
        return (text[:, :max_len], lengths), target

    def forward(self, inputs):
        text, lengths = inputs
        return self.out(self.emb(text)).mean(dim=1)


def train_step(model, opt, x, y):
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


def main():
    model = Net().cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(1000):
        batch = (torch.randint(0, 100, (16, 40)), torch.randint(1, 40, (16,)), torch.randn(16, 1))
        x, y = model.parse_batch(batch)
        loss = train_step(model, opt, x, y)
        if step % 100 == 0:
            print(step, loss)


if __name__ == "__main__":
    main()
