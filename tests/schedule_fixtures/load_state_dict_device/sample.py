import argparse

import torch

from model import TinyLM

parser = argparse.ArgumentParser()
parser.add_argument("--ckpt", default="out/ckpt.pt")
parser.add_argument("--device", default="cuda")
parser.add_argument("--num_samples", type=int, default=4)
args = parser.parse_args()
device = args.device

checkpoint = torch.load(args.ckpt, map_location=device)
model = TinyLM()
state_dict = checkpoint["model"]
for k in list(state_dict.keys()):
    if k.startswith("_orig_mod."):
        state_dict[k[len("_orig_mod."):]] = state_dict.pop(k)
model.load_state_dict(state_dict)
model.eval()
model.to(device)

# the EMA copy is moved first: loading it copies device to device
ema = TinyLM().to(device)
ema.load_state_dict(checkpoint["ema"])

# a reference model loaded on the host: host to host
ref = TinyLM()
ref.load_state_dict(torch.load("ref.pt", map_location="cpu"))

x = torch.zeros(1, 1, dtype=torch.long, device=device)
with torch.no_grad():
    for k in range(args.num_samples):
        idx = x
        for _ in range(16):
            logits = model(idx)
            nxt = torch.multinomial(torch.softmax(logits[:, -1, :], dim=-1), num_samples=1)
            idx = torch.cat([idx, nxt], dim=1)
        print(idx[0].tolist())
