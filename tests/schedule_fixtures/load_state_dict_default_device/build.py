import torch

from model import TinyLM

checkpoint = torch.load("ckpt/consolidated.pth", map_location="cpu")
torch.set_default_tensor_type(torch.cuda.HalfTensor)
model = TinyLM()
model.load_state_dict(checkpoint, strict=False)

# a host copy for reference, built with the default set to the host again
torch.set_default_tensor_type(torch.FloatTensor)
ref = TinyLM()
ref.load_state_dict(checkpoint)

prompt = torch.tensor([[1, 2, 3]], dtype=torch.long, device="cuda")
with torch.no_grad():
    for k in range(4):
        idx = prompt
        for _ in range(8):
            logits = model(idx)
            nxt = torch.argmax(logits[:, -1], dim=-1, keepdim=True)
            idx = torch.cat([idx, nxt], dim=1)
        print(idx[0].tolist())
