"""A small decoder-only LM with a KV-less forward (the whole prefix each call)."""
import torch
import torch.nn as nn


class TinyLM(nn.Module):
    def __init__(self, vocab_size=512, dim=128, n_layer=2):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim)
        self.layers = nn.ModuleList([nn.Linear(dim, dim) for _ in range(n_layer)])
        self.head = nn.Linear(dim, vocab_size, bias=False)

    def forward(self, tokens):
        h = self.emb(tokens)
        for layer in self.layers:
            h = torch.relu(layer(h))
        return self.head(h)


class Generator:
    def __init__(self, model, device):
        self.model = model
        self.device = device

    @torch.inference_mode()
    def generate(self, prompts, max_gen_len, temperature, eos_id):
        bsz = len(prompts)
        min_len = min(len(p) for p in prompts)
        total_len = min_len + max_gen_len
        tokens = torch.zeros((bsz, total_len), dtype=torch.long, device=self.device)
        for k, p in enumerate(prompts):
            tokens[k, : len(p)] = torch.tensor(p, dtype=torch.long, device=self.device)
        done = torch.tensor([False] * bsz, device=self.device)
        if min_len == total_len:
            logits = self.model(tokens)
        for cur_pos in range(min_len, total_len):
            logits = self.model(tokens[:, :cur_pos])
            probs = torch.softmax(logits[:, -1] / temperature, dim=-1)
            next_token = torch.multinomial(probs, num_samples=1).reshape(-1)
            tokens[:, cur_pos] = next_token
            done = done | (next_token == eos_id)
            if all(done):
                break
        return tokens.tolist()
