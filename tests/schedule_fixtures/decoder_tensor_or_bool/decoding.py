"""Decoding options and the two token decoders a task chooses between: the
greedy one's `completed` is a device tensor, the beam one's a Python bool."""
from dataclasses import dataclass
from typing import Optional

import torch


@dataclass(frozen=True)
class DecodingOptions:
    temperature: float = 0.0
    beam_size: Optional[int] = None
    best_of: Optional[int] = None
    sample_len: int = 64


class GreedyDecoder:
    def __init__(self, temperature, eot):
        self.temperature = temperature
        self.eot = eot

    def update(self, tokens, logits):
        if self.temperature == 0:
            nxt = logits.argmax(dim=-1)
        else:
            nxt = torch.multinomial(torch.softmax(logits / self.temperature, dim=-1), 1)[:, 0]
        tokens = torch.cat([tokens, nxt[:, None]], dim=-1)
        completed = (tokens[:, -1] == self.eot).all()
        return tokens, completed

    def finished(self, tokens):
        return tokens.shape[-1] > 32


class BeamDecoder:
    def __init__(self, beam_size, eot):
        self.beam_size = beam_size
        self.eot = eot

    def update(self, tokens, logits):
        scores, idx = logits.log_softmax(dim=-1).topk(self.beam_size, dim=-1)
        best = idx[:, 0].tolist()
        tokens = torch.cat([tokens, torch.tensor(best, device=tokens.device)[:, None]], dim=-1)
        completed = all(t == self.eot for t in best)
        return tokens, completed

    def finished(self, tokens):
        return self.beam_size > 8


class DecodingTask:
    def __init__(self, model, options, eot=2):
        self.model = model
        self.options = options
        if options.beam_size is not None:
            self.decoder = BeamDecoder(options.beam_size, eot)
        else:
            self.decoder = GreedyDecoder(options.temperature, eot)

    @torch.no_grad()
    def run(self, tokens):
        for _ in range(self.options.sample_len):
            logits = self.model(tokens)[:, -1]
            tokens, completed = self.decoder.update(tokens, logits)
            if completed:
                break
            if self.decoder.finished(tokens) or self.options.sample_len < 4:
                break
            if tokens.shape[-1] > 48 or completed:
                break
        return tokens
