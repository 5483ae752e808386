import torch
import torch.nn as nn
from transformers import BertTokenizer


class Captioner(nn.Module):
    def __init__(self):
        super().__init__()
        self.tokenizer = BertTokenizer.from_pretrained("bert-base-uncased")
        self.embed = nn.Embedding(30522, 16)
        self.proj = nn.Linear(16, 16)

    def forward(self, image, caption):
        text = self.tokenizer(caption, padding="longest", return_tensors="pt").to(image.device)
        ids = text.input_ids.to(image.device)
        mask = self.tokenizer(caption, return_tensors="np")["attention_mask"]
        return self.proj(self.embed(ids)).mean() + image.mean() + float(mask.sum())


model = Captioner().cuda()
opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
for step in range(1000):
    image = torch.randn(4, 3, 8, 8).cuda()
    caption = ["a picture of a cat"] * 4
    loss = model(image, caption)
    opt.zero_grad()
    loss.backward()
    opt.step()
