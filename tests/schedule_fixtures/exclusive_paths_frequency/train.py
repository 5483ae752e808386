# The training function runs on one of two paths a run takes: mp.spawn
# once per GPU when there are several, a direct call otherwise.  Each of
# its lines runs on one path only, so its frequency is the one both paths
# read: the helper's read twice a step (two calls), the evaluation's read
# 20 times every 100 steps -- no count lost to "more than one path".
import torch
import torch.nn as nn
import torch.multiprocessing as mp


def part_loss(out, k):
    loss = out[:, k].pow(2).mean()
    print(loss.item())
    return loss


def train(rank, ngpus):
    device = torch.device("cuda:{:d}".format(rank))
    model = nn.Linear(8, 2).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(1000):
        x = torch.randn(4, 8).to(device)
        out = model(x)
        loss = part_loss(out, 0) + part_loss(out, 1)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 100 == 0:
            with torch.no_grad():
                for j in range(20):
                    v = model(torch.randn(4, 8).to(device))
                    print(v.sum().item())


def main():
    ngpus = 0
    if torch.cuda.is_available():
        ngpus = torch.cuda.device_count()
    if ngpus > 1:
        mp.spawn(train, nprocs=ngpus, args=(ngpus,))
    else:
        train(0, ngpus)


if __name__ == "__main__":
    main()
