"""Loss terms logged by key: only the term named "loss" is read on the
host.  The loop over the three terms reads the device once per step (at
the last key), not three times; its earlier iterations do nothing, so the
one iteration that reads says nothing of how many do."""
import torch
import torch.nn as nn


def main():
    model = nn.Linear(8, 8).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        x = torch.randn(16, 8, device="cuda")
        out = model(x)
        mse = (out - x).pow(2).mean()
        reg = out.abs().mean()
        terms = {"mse": mse, "reg": reg, "loss": mse + 0.1 * reg}
        opt.zero_grad()
        terms["loss"].backward()
        opt.step()
        for key, value in terms.items():
            if key == "loss":
                print(step, value.item())


if __name__ == "__main__":
    main()
