import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--checkpoint", default="./model.pt")
parser.add_argument("--words", type=int, default=100)
parser.add_argument("--outf", default="generated.txt")
args = parser.parse_args()

device = torch.device("cuda")
ckpt = torch.load(args.checkpoint, map_location="cpu")
print("trained for", ckpt["epochs"], "epochs")

with open(args.checkpoint, "rb") as f:
    model = torch.load(f, map_location=device)
model.eval()

input = torch.randint(1000, (1, 1), dtype=torch.long).to(device)

with open(args.outf, "w") as outf:
    with torch.no_grad():
        for i in range(args.words):
            output = model(input)
            word_weights = output[-1].squeeze().exp().cpu()
            word_idx = torch.multinomial(word_weights, 1)[0]
            input = torch.cat([input, torch.tensor([[word_idx]]).to(device)], 0)
            outf.write(str(int(word_idx)) + " ")
