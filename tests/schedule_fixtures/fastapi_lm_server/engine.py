"""Loads the model once and generates for one request at a time."""
import torch

from model import LMConfig, TinyLM
from tokenizer import VocabTokenizer


class Engine:
    def __init__(self, model, tokenizer, device, max_new_tokens=512):
        self.model = model
        self.tokenizer = tokenizer
        self.device = device
        self.max_new_tokens = max_new_tokens

    @classmethod
    def from_checkpoint(cls, path, device):
        state = torch.load(path, map_location="cpu", weights_only=True)
        model = TinyLM(LMConfig(**state["config"]))
        model.load_state_dict(state["model"])
        model.to(device=device, dtype=torch.float16).eval()
        return cls(model, VocabTokenizer(state["vocab"]), device)

    @torch.inference_mode()
    def warmup(self):
        x = torch.zeros(1, 16, dtype=torch.long, device=self.device)
        self.model(x)
        torch.cuda.synchronize()

    @torch.inference_mode()
    def generate(self, prompt, max_tokens, temperature):
        ids = self.tokenizer.encode(prompt)
        x = torch.tensor([ids], dtype=torch.long).pin_memory().to(self.device, non_blocking=True)
        start = x.size(1)
        for _ in range(max_tokens):
            logits = self.model(x[:, -self.model.cfg.block_size:])[:, -1, :].float()
            if temperature > 0:
                nxt = torch.multinomial(torch.softmax(logits / temperature, dim=-1), num_samples=1)
            else:
                nxt = logits.argmax(dim=-1, keepdim=True)
            x = torch.cat([x, nxt], dim=1)
            if (nxt == self.tokenizer.eos_id).all():
                break
        new = x[0, start:].cpu()
        return new.tolist(), new.numel()
