"""Loss terms come from a criterion outside the repository, whose dict's
keys are not known here; they are weighted in a comprehension, summed
for the backward, and each read on the host: as many reads a step as the
criterion gives terms -- a number not known here, not one."""
import torch
import torch.nn as nn
from setcrit import SetCriterion


def main():
    model = nn.Linear(16, 16).cuda()
    criterion = SetCriterion(num_classes=16)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    weights = torch.ones(32, device="cuda")
    for step in range(1000):
        x = torch.randn(32, 16, device="cuda")
        loss_dict = criterion(model(x), x)
        weighted = {k: v * weights for k, v in loss_dict.items()}
        loss = sum(l.mean() for l in weighted.values())
        opt.zero_grad()
        loss.backward()
        opt.step()
        for key, value in weighted.items():
            print(step, key, value.mean().item())


if __name__ == "__main__":
    main()
