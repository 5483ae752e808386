import torch
import torch.nn as nn

from diffusers.pipelines.pipeline_toy import ToyPipeline


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)

    def forward(self, x):
        return self.fc(x)


def main():
    device = torch.device("cuda")
    net = Net().to(device)
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    for step in range(100):
        x = torch.randn(4, 8, device=device)
        loss = net(x).pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()
        if step % 50 == 0:
            pipe = ToyPipeline.from_pretrained("org/toy-model", unet=net, safety_checker=None)
            pipe = pipe.to(device)
            images = pipe(torch.randn(2, 8, device=device))


if __name__ == "__main__":
    main()
