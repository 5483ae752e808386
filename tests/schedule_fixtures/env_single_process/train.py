import torch
import torch.nn as nn

import utils


def main():
    distributed = utils.init_distributed()
    device = torch.device('cuda')
    model = nn.Linear(16, 4).to(device)
    if distributed:
        model = torch.nn.parallel.DistributedDataParallel(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.randn(32, 16).to(device)
    print(utils.gather_sizes(x))
    for step in range(1000):
        x = torch.randn(32, 16).to(device)
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        logged = utils.reduce_mean(loss.detach())
        if step % 50 == 0:
            print(logged.item())
        if utils.is_main_process() and step % 500 == 0:
            torch.save(model.state_dict(), 'ckpt.pt')


if __name__ == '__main__':
    main()
