"""A frozen text encoder loaded with a library's from_pretrained (on the
host: no device_map) and moved to the GPU once; a second model loaded with
device_map="auto" is placed on load, so its .to() copies nothing stated;
the tokenizer is no module.  The trained head is the job's own."""
import torch
import torch.nn as nn
from transformers import AutoTokenizer, CLIPTextModel, T5EncoderModel

device = torch.device("cuda")
tokenizer = AutoTokenizer.from_pretrained("openai/clip-vit-base-patch32")
text_encoder = CLIPTextModel.from_pretrained("openai/clip-vit-base-patch32")
text_encoder.requires_grad_(False)
text_encoder.to(device, dtype=torch.float16)
t5 = T5EncoderModel.from_pretrained("t5-small", device_map="auto")
t5.to(device)
head = nn.Linear(512, 10).to(device)
opt = torch.optim.AdamW(head.parameters(), lr=1e-4)
for step in range(1000):
    ids = torch.randint(0, 49408, (8, 77), device=device)
    with torch.no_grad():
        feats = text_encoder(ids)[0][:, 0].float()
    loss = head(feats).logsumexp(-1).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
