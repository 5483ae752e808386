# A tensor stored under a registered buffer's name is that buffer from
# then on (nn.Module.__setattr__ keeps it in _buffers): the in-place
# `head.anchors /= stride` before the move leaves a buffer that .cuda()
# moves, so the boolean mask on it later reads the device.  A plain
# tensor attribute stays where it was made: the same mask on it reads
# nothing of the device.
import torch
import torch.nn as nn


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 4)
        self.register_buffer("anchors", torch.tensor([[10.0, 13.0], [16.0, 30.0], [33.0, 23.0]]))
        self.stride = torch.tensor([8.0, 16.0, 32.0])

    def forward(self, x):
        return self.fc(x)


def main():
    head = Head()
    head.anchors /= head.stride.view(-1, 1)
    head.cuda()
    anchors, stride = head.anchors, head.stride
    opt = torch.optim.SGD(head.parameters(), lr=0.1)
    for step in range(100):
        x = torch.randn(8, 16, device="cuda")
        big = anchors[anchors[:, 0] > 1.0]
        coarse = stride[stride > 8.0]
        loss = head(x).pow(2).mean() + big.sum() * 0
        loss.backward()
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
