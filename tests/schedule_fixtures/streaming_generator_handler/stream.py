"""The token stream of one request: a generator the server hands to the client."""
import json

import torch


@torch.inference_mode()
def stream_tokens(model, prompt_ids, max_new_tokens, device, eos_id=0):
    x = torch.as_tensor([prompt_ids], device=device)
    for i in range(max_new_tokens):
        logits = model(x)[:, -1, :]
        nxt = logits.argmax(dim=-1, keepdim=True)
        x = torch.cat([x, nxt], dim=1)
        token = nxt.item()
        yield json.dumps({"token": token, "index": i}) + "\n"
        if token == eos_id:
            break
