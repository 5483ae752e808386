"""Decoding options, the two token decoders a task chooses between, and
the candidates each gives back: the greedy decoder's stay a device
tensor, the beam decoder's are collected on the host."""
from dataclasses import dataclass
from typing import Optional

import torch
import torch.nn.functional as F


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
        nxt = torch.multinomial(torch.softmax(logits / self.temperature, dim=-1), 1)[:, 0]
        return torch.cat([tokens, nxt[:, None]], dim=-1)

    def finalize(self, tokens):
        # one candidate per sequence, each ended by an EOT: on the device
        return F.pad(tokens, (0, 1), value=self.eot)[:, None]


class BeamDecoder:
    def __init__(self, beam_size, eot):
        self.beam_size = beam_size
        self.eot = eot
        self.finished = []

    def update(self, tokens, logits):
        idx = logits.log_softmax(dim=-1).topk(self.beam_size, dim=-1)[1]
        best = idx[:, 0].tolist()
        self.finished.append(tuple(best) + (self.eot,))
        return torch.cat([tokens, torch.tensor(best, device=tokens.device)[:, None]], dim=-1)

    def finalize(self, tokens):
        # the finished sequences, collected on the host as CPU tensors
        return [[torch.tensor(seq) for seq in self.finished]]


class DecodingTask:
    def __init__(self, model, options, eot=2):
        self.model = model
        self.options = options
        self.eot = eot
        if options.beam_size is not None:
            self.decoder = BeamDecoder(options.beam_size, eot)
        else:
            self.decoder = GreedyDecoder(options.temperature, eot)

    @torch.no_grad()
    def run(self, tokens):
        sample_begin = tokens.shape[-1]
        for _ in range(self.options.sample_len):
            logits = self.model(tokens)[:, -1]
            tokens = self.decoder.update(tokens, logits)
        candidates = self.decoder.finalize(tokens)
        candidates = [[t[sample_begin:(t == self.eot).nonzero()[0, 0]] for t in s] for s in candidates]
        return [s[0].tolist() for s in candidates]
