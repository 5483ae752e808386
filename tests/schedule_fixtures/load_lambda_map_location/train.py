import torch
import torch.nn as nn


def load_checkpoint(path):
    checkpoint = torch.load(path, map_location=lambda storage, loc: storage)
    if "ema" in checkpoint:
        checkpoint = checkpoint["ema"]
    return checkpoint


def main():
    model = nn.Linear(8, 8).cuda()
    model.load_state_dict(load_checkpoint("model.pt"))
    other = nn.Linear(8, 8).cuda()
    state = torch.load("other.pt", map_location=lambda storage, loc: storage.cuda())
    other.load_state_dict(state)
    model.eval()
    with torch.no_grad():
        for step in range(100):
            x = torch.randn(4, 8, device="cuda")
            y = other(model(x))
            out = y.cpu()
    print(out.shape)


if __name__ == "__main__":
    main()
