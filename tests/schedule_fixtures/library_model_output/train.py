import torch
from transformers import AutoModelForSequenceClassification

model = AutoModelForSequenceClassification.from_pretrained("bert-base-cased", num_labels=2)
model = model.to("cuda")
opt = torch.optim.AdamW(model.parameters(), lr=1e-5)
cpu_model = AutoModelForSequenceClassification.from_pretrained("bert-base-cased", num_labels=2)
for step in range(100):
    ids = torch.randint(0, 1000, (8, 32), device="cuda")
    labels = torch.randint(0, 2, (8,), device="cuda")
    out = model(input_ids=ids, labels=labels)
    out.loss.backward()
    opt.step()
    opt.zero_grad()
    print(out.loss.item())
    preds = out.logits.argmax(dim=-1).tolist()
ref = cpu_model(input_ids=torch.randint(0, 1000, (1, 32)))
print(ref.logits.argmax(dim=-1).tolist())
