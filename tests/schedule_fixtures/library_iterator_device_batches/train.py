# A translation model fed by torchtext's legacy BucketIterator made with
# device=: the iterator builds each batch's fields on the GPU itself
# (Field.numericalize: torch.tensor(padded lists, device=device)), so the
# copy is at the loop that takes the batch and batch.src.to(device) moves
# nothing.  The validation iterator is made on the host: its fields are
# host tensors, and reading them is no sync.
import pickle

import torch
import torch.nn as nn
from torchtext.data import BucketIterator, Dataset


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(100, 16)
        self.out = nn.Linear(16, 100)

    def forward(self, src):
        return self.out(self.emb(src))


def main():
    device = torch.device("cuda")
    data = pickle.load(open("data.pkl", "rb"))
    train = Dataset(examples=data["train"], fields=data["fields"])
    val = Dataset(examples=data["valid"], fields=data["fields"])
    train_it = BucketIterator(train, batch_size=64, device=device, train=True)
    val_it = BucketIterator(val, 64, None, "cpu")
    model = Net().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(3):
        for batch in train_it:
            src = batch.src.to(device)
            loss = model(src).sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
            n = batch.trg.ne(1).sum().item()
            print(loss.item(), n)
        for batch in val_it:
            print(batch.src.sum().item())


if __name__ == "__main__":
    main()
