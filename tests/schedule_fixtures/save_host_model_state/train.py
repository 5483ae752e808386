# torch.save of the state dict of a model built on the host and never moved
# copies nothing off a device; the GPU model's does (a copy that waits).
import torch


def main():
    model = torch.nn.Linear(4, 4).cuda()
    cpu_model = torch.nn.Linear(4, 4)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(10):
        x = torch.randn(2, 4, device="cuda")
        model(x).sum().backward()
        opt.step()
        if step % 5 == 0:
            torch.save(cpu_model.state_dict(), "cpu.pt")
            torch.save(model.state_dict(), "gpu.pt")


main()
