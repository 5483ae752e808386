"""A decoding task: run() copies the prompt in, calls its per-token loop,
then reads the result back (once per run, not per token)."""
import torch
import torch.nn as nn


class TinyLM(nn.Module):
    def __init__(self, vocab_size=256, dim=64):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim)
        self.head = nn.Linear(dim, vocab_size, bias=False)

    def forward(self, tokens):
        return self.head(torch.relu(self.emb(tokens)))


class DecodeTask:
    def __init__(self, model, sample_len, eot=2):
        self.model = model
        self.sample_len = sample_len
        self.eot = eot

    def _main_loop(self, tokens):
        sum_logprobs = torch.zeros(tokens.shape[0], device=tokens.device)
        for i in range(self.sample_len):
            logits = self.model(tokens)[:, -1]
            logprobs = torch.log_softmax(logits, dim=-1)
            next_tokens = logits.argmax(dim=-1)
            sum_logprobs += logprobs.gather(-1, next_tokens[:, None])[:, 0]
            tokens = torch.cat([tokens, next_tokens[:, None]], dim=-1)
            if bool((next_tokens == self.eot).all()):
                break
        return tokens, sum_logprobs

    def finalize(self, tokens, sum_logprobs):
        return tokens, sum_logprobs.tolist()

    @torch.no_grad()
    def run(self, prompt, device):
        tokens = torch.tensor([prompt]).to(device)
        tokens, sum_logprobs = self._main_loop(tokens)
        tokens, scores = self.finalize(tokens, sum_logprobs)
        return tokens[0].tolist(), scores[0]
