# A call with return_tensors="pt" (Hugging Face tokenizers, processors,
# feature extractors) returns a mapping of host tensors (BatchEncoding):
# an item of it moved to the device, or the whole mapping moved with its
# .to(device), is a host-to-device copy.  Look-alikes: return_tensors="np"
# gives numpy arrays, an item of a mapping already moved is on the device,
# .to(dtype) and .to("cpu") copy nothing to the device.
import torch
import torch.nn as nn
from transformers import AutoTokenizer


class Scorer(nn.Module):
    def __init__(self, vocab=30522, dim=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.out = nn.Linear(dim, 1)

    def forward(self, input_ids):
        return self.out(self.emb(input_ids)).squeeze(-1)


@torch.no_grad()
def main():
    device = torch.device("cuda")
    tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")
    model = Scorer().to(device)
    model.eval()
    texts = ["a short one", "another, a little longer"] * 64
    for i in range(0, len(texts), 16):
        chunk = texts[i:i + 16]
        enc = tokenizer(chunk, padding=True, return_tensors="pt")
        ids = enc["input_ids"].to(device)
        mask = enc["attention_mask"].to(torch.float32)
        np_enc = tokenizer(chunk, padding=True, return_tensors="np")
        width = np_enc["input_ids"].shape[1]
        batch = tokenizer(chunk, padding=True, return_tensors="pt").to(device)
        ids2 = batch["input_ids"].to(device)
        enc.to("cpu")
        first = tokenizer.encode(chunk[0], return_tensors="pt").cuda()
        enc.to(torch.bfloat16)
        scores = model(ids) + model(ids2) + model(first).sum()
        print(width, mask.shape, scores.shape)


if __name__ == "__main__":
    main()
