# Parameters listed while the model is on the host, then the model moved:
# PyTorch moves them in place, so p.device is the GPU by the time the loop
# reads it and x.to(p.device) copies nothing.  A model never moved keeps
# its parameters on the host: x.to(q.device) of a GPU tensor is a copy
# to the host.
import torch


def main():
    model = torch.nn.Linear(4, 4)
    params = list(model.parameters())
    model.cuda()
    shadow = torch.nn.Linear(4, 4)
    shadow_params = list(shadow.parameters())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(10):
        x = torch.randn(2, 4, device="cuda")
        model(x).sum().backward()
        opt.step()
        y = x.to(params[0].device)
        z = x.to(shadow_params[0].device)
        opt.zero_grad()


main()
