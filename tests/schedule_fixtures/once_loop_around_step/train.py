import argparse

import torch
import torch.nn as nn


def analysis_inputs(n_pathways):
    inputs = [torch.rand(3, 16) for _ in range(n_pathways)]
    for i in range(len(inputs)):
        inputs[i] = inputs[i].cuda(non_blocking=True)
    return inputs


def train(cfg_file):
    model = nn.Linear(16, 16).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    state = torch.load("resume.pt", map_location="cpu")
    opt.load_state_dict(state["optimizer"])
    probe = analysis_inputs(2)
    print(len(probe))
    for step in range(1000):
        x = torch.randn(8, 16).cuda(non_blocking=True)
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 100 == 0:
            print(loss.item())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cfg", dest="cfg_files", nargs="+", default=["configs/base.yaml"])
    args = parser.parse_args()
    for cfg_file in args.cfg_files:
        train(cfg_file)


if __name__ == "__main__":
    main()
