# A boolean mask kept as a plain tensor attribute (not a buffer), made on
# the host from the layer's weight before the model moves: model.cuda()
# leaves it there.  Storing through it into a device tensor runs the
# mask's nonzero on the host (no read of the device) and copies the
# indices to the device -- an H2D, not a sync (loralib's
# MergedLinear.zero_pad: result[self.lora_ind] = x).
import torch
import torch.nn as nn


class Merged(nn.Linear):
    def __init__(self, i, o):
        nn.Linear.__init__(self, i, o)
        self.lora_A = nn.Parameter(self.weight.new_zeros((4, i)))
        self.ind = self.weight.new_zeros((o,), dtype=torch.bool).view(2, -1)
        self.ind[[True, False], :] = True
        self.ind = self.ind.view(-1)

    def forward(self, x):
        d = x @ self.lora_A.T
        r = x.new_zeros((len(self.ind), *d.shape[1:]))
        r[self.ind] = d
        return r


def main():
    device = torch.device("cuda")
    model = Merged(8, 8).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        x = torch.randn(4, 8, device=device)
        loss = model(x.T).sum()
        loss.backward()
        opt.step()
        opt.zero_grad()


main()
